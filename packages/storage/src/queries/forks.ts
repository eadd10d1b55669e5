import type { Repository } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { REPO_COLUMNS } from "./repositories.js";

/** The fork of `baseId` that `ownerId` owns, if any (Forgejo's GetUserFork). */
export async function findUserFork(db: Db, baseId: number, ownerId: number): Promise<Repository | undefined> {
  return db
    .selectFrom("repository")
    .select(REPO_COLUMNS)
    .where("repository.forkId", "=", baseId)
    .where("repository.ownerId", "=", ownerId)
    .executeTakeFirst();
}

/** Sets `num_forks` of a repository from its fork rows (run in the transaction that changed them). */
export async function recountForks(db: Db, repoId: number): Promise<void> {
  await db
    .updateTable("repository")
    .set({
      numForks: sql<number>`(select count(*) from repository as f where f.fork_id = ${repoId})`,
    })
    .where("id", "=", repoId)
    .execute();
}

/**
 * Turns the forks of a repository that is being deleted into ordinary repositories (Forgejo's
 * `UPDATE repository SET fork_id=0, is_fork=false WHERE fork_id=?`); returns how many there were.
 */
export async function detachForks(db: Db, repoId: number): Promise<number> {
  const rows = await db
    .updateTable("repository")
    .set({ forkId: null, isFork: false })
    .where("forkId", "=", repoId)
    .returning("id")
    .execute();
  return rows.length;
}

/** The repositories with these ids (the parents of a page of forks), in one query. */
export async function findByIds(db: Db, ids: readonly number[]): Promise<Repository[]> {
  if (ids.length === 0) return [];
  return db.selectFrom("repository").select(REPO_COLUMNS).where("repository.id", "in", ids).execute();
}

/**
 * Makes a new repository reference every LFS object `fromRepoId` references (Forgejo's CopyLFS, for
 * forks and generated repositories): the objects are stored once, each reference counts for its
 * repository. Returns the new repository's LFS size.
 */
export async function copyLfsObjects(db: Db, fromRepoId: number, toRepoId: number): Promise<number> {
  await db
    .insertInto("lfsMetaObject")
    .columns(["repoId", "oid", "size"])
    .expression(
      db
        .selectFrom("lfsMetaObject")
        .select((eb) => [eb.val(toRepoId).as("repoId"), "oid", "size"])
        .where("repoId", "=", fromRepoId),
    )
    .execute();
  const row = await db
    .selectFrom("lfsMetaObject")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("size"), eb.lit(0)).as("total"))
    .where("repoId", "=", toRepoId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}
