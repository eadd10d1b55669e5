import type { LfsLock } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";

export type { LfsLock } from "@kiln/domain";

/** A lock held by someone, as the push policy needs it: the path and who holds it. */
export interface HeldLock {
  readonly path: string;
  readonly ownerName: string;
}

function locks(db: Db) {
  return db
    .selectFrom("lfsLock")
    .innerJoin("users", "users.id", "lfsLock.ownerId")
    .select([
      "lfsLock.id",
      "lfsLock.repoId",
      "lfsLock.ownerId",
      "users.name as ownerName",
      "lfsLock.path",
      "lfsLock.createdAt",
    ]);
}

/**
 * The repository's lock on `path`, compared without case (Forgejo's `lower(path) = ?`), or
 * undefined. Both sides are lowered by the database, as the unique index is: JavaScript lowers
 * some letters differently ("İ"), and a holder it missed would never be found.
 */
export async function findLockByPath(db: Db, repoId: number, path: string): Promise<LfsLock | undefined> {
  return locks(db)
    .where("lfsLock.repoId", "=", repoId)
    .where(sql<string>`lower(lfs_lock.path)`, "=", sql<string>`lower(${path})`)
    .executeTakeFirst();
}

/** The repository's lock with this id, or undefined (a lock of another repository is undefined too). */
export async function findLockById(db: Db, repoId: number, id: number): Promise<LfsLock | undefined> {
  return locks(db).where("lfsLock.repoId", "=", repoId).where("lfsLock.id", "=", id).executeTakeFirst();
}

/**
 * Locks `path` for `ownerId`, or answers the lock that already holds the path. The unique index
 * on `(repo_id, lower(path))` decides between concurrent requests: exactly one inserts.
 */
export async function createLock(
  db: Db,
  repoId: number,
  ownerId: number,
  path: string,
): Promise<{ readonly created: boolean; readonly lock: LfsLock | undefined }> {
  const inserted = await db
    .insertInto("lfsLock")
    .values({ repoId, ownerId, path })
    .onConflict((oc) => oc.expression(sql`repo_id, lower(path)`).doNothing())
    .returning("id")
    .executeTakeFirst();
  if (inserted) return { created: true, lock: await findLockById(db, repoId, inserted.id) };
  return { created: false, lock: await findLockByPath(db, repoId, path) };
}

/**
 * A page of the repository's locks in id order, starting after `afterId`. Reads `limit + 1` rows
 * so the caller knows whether another page follows.
 */
export async function listLocks(
  db: Db,
  repoId: number,
  page: { readonly afterId: number; readonly limit: number },
): Promise<LfsLock[]> {
  return locks(db)
    .where("lfsLock.repoId", "=", repoId)
    .where("lfsLock.id", ">", page.afterId)
    .orderBy("lfsLock.id")
    .limit(page.limit + 1)
    .execute();
}

/** How many locks the repository holds. */
export async function countLocks(db: Db, repoId: number): Promise<number> {
  const row = await db
    .selectFrom("lfsLock")
    .select((eb) => eb.fn.countAll<string>().as("n"))
    .where("repoId", "=", repoId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Deletes the repository's lock with this id; returns whether it was there. */
export async function deleteLock(db: Db, repoId: number, id: number): Promise<boolean> {
  const r = await db
    .deleteFrom("lfsLock")
    .where("repoId", "=", repoId)
    .where("id", "=", id)
    .executeTakeFirst();
  return (r.numDeletedRows ?? 0n) > 0n;
}

/** Every lock of the repository that someone other than `userId` holds (the pusher's push policy). */
export async function locksHeldByOthers(db: Db, repoId: number, userId: number): Promise<HeldLock[]> {
  return db
    .selectFrom("lfsLock")
    .innerJoin("users", "users.id", "lfsLock.ownerId")
    .select(["lfsLock.path", "users.name as ownerName"])
    .where("lfsLock.repoId", "=", repoId)
    .where("lfsLock.ownerId", "<>", userId)
    .orderBy("lfsLock.id")
    .execute();
}
