import type { Paged, PageRequest } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { paged } from "./paging.js";
import { setFollow } from "./social.js";

/** One entry of a blocker's list: the blocked account's id and when it was blocked. */
export interface BlockedUserEntry {
  readonly blockId: number;
  readonly createdAt: Date;
}

/** Whether any of `blockerIds` blocks `userId` (Forgejo's IsBlockedMultiple). */
export async function isBlockedByAny(
  db: Db,
  blockerIds: readonly number[],
  userId: number,
): Promise<boolean> {
  const ids = [...new Set(blockerIds)].filter((id) => id !== userId);
  if (ids.length === 0) return false;
  const row = await db
    .selectFrom("blockedUser")
    .select("id")
    .where("userId", "in", ids)
    .where("blockId", "=", userId)
    .executeTakeFirst();
  return row !== undefined;
}

/**
 * Records that `userId` blocks `blockId` and undoes what the block forbids, as Forgejo's
 * BlockUser: follows both ways, the blocked user's watches of the blocker's repositories, the
 * blocked user's collaborations on them, and pending transfers between the two. Returns false
 * when the block was there already (then nothing else changes). Run in a transaction.
 */
export async function insertBlock(db: Db, userId: number, blockId: number, at: Date): Promise<boolean> {
  const inserted = await db
    .insertInto("blockedUser")
    .values({ userId, blockId, createdAt: at })
    .onConflict((oc) => oc.columns(["userId", "blockId"]).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (!inserted) return false;
  await setFollow(db, blockId, userId, false, at);
  await setFollow(db, userId, blockId, false, at);
  const owned = db.selectFrom("repository").select("id").where("ownerId", "=", userId);
  const unwatched = await db
    .deleteFrom("watch")
    .where("userId", "=", blockId)
    .where("repoId", "in", owned)
    .returning("repoId")
    .execute();
  for (const { repoId } of unwatched) {
    await sql`update repository set num_watches = (select count(*) from watch
      where watch.repo_id = ${repoId} and watch.mode in (1, 3)) where id = ${repoId}`.execute(db);
  }
  await db.deleteFrom("collaboration").where("userId", "=", blockId).where("repoId", "in", owned).execute();
  await db
    .deleteFrom("repoTransfer")
    .where((eb) =>
      eb.or([
        eb.and([eb("doerId", "=", userId), eb("recipientId", "=", blockId)]),
        eb.and([eb("doerId", "=", blockId), eb("recipientId", "=", userId)]),
      ]),
    )
    .execute();
  return true;
}

/** Removes a block; false when there was none. */
export async function deleteBlock(db: Db, userId: number, blockId: number): Promise<boolean> {
  const rows = await db
    .deleteFrom("blockedUser")
    .where("userId", "=", userId)
    .where("blockId", "=", blockId)
    .returning("id")
    .execute();
  return rows.length > 0;
}

/** One page of the accounts `userId` blocks, most recent block first. */
export function listBlocked(db: Db, userId: number, page: PageRequest): Promise<Paged<BlockedUserEntry>> {
  const rows = db
    .selectFrom("blockedUser")
    .select(["blockId", "createdAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc");
  const count = db
    .selectFrom("blockedUser")
    .select((eb) => eb.fn.countAll().as("count"))
    .where("userId", "=", userId);
  return paged(rows, count, page);
}
