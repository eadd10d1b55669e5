import type { Db, RepoTransferRow } from "../database.js";
import { cachedRead } from "../read-cache.js";

/** Records a pending transfer (at most one per repository). */
export async function insertTransfer(
  db: Db,
  values: { repoId: number; doerId: number; recipientId: number; teamIds: readonly number[] },
): Promise<void> {
  await db
    .insertInto("repoTransfer")
    .values({ ...values, teamIds: JSON.stringify(values.teamIds) })
    .execute();
}

/** The pending transfer of a repository, if any. */
export async function findTransfer(db: Db, repoId: number): Promise<RepoTransferRow | undefined> {
  return db.selectFrom("repoTransfer").selectAll().where("repoId", "=", repoId).executeTakeFirst();
}

/** The pending transfers of these repositories (most have none). */
export async function findTransfers(db: Db, repoIds: readonly number[]): Promise<RepoTransferRow[]> {
  if (repoIds.length === 0) return [];
  return cachedRead(db, `repo-transfers:${repoIds.join(",")}`, () =>
    db.selectFrom("repoTransfer").selectAll().where("repoId", "in", repoIds).execute(),
  );
}

export async function deleteTransfer(db: Db, repoId: number): Promise<void> {
  await db.deleteFrom("repoTransfer").where("repoId", "=", repoId).execute();
}
