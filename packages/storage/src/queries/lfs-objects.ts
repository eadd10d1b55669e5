import type { Db } from "../database.js";
import { type RepoViewer, repoVisibleTo } from "./repo-visibility.js";

/**
 * Records that a repository references an LFS object. Returns true when the reference is new (so
 * the caller adds its size to the repository and the ledger), false when it already existed.
 */
export async function addLfsObject(db: Db, repoId: number, oid: string, size: number): Promise<boolean> {
  const r = await db
    .insertInto("lfsMetaObject")
    .values({ repoId, oid, size })
    .onConflict((oc) => oc.columns(["repoId", "oid"]).doNothing())
    .executeTakeFirst();
  return (r.numInsertedOrUpdatedRows ?? 0n) > 0n;
}

/** The size of an object the repository references, or undefined when it does not reference it. */
export async function findLfsObject(db: Db, repoId: number, oid: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("lfsMetaObject")
    .select("size")
    .where("repoId", "=", repoId)
    .where("oid", "=", oid)
    .executeTakeFirst();
  return row?.size;
}

/** Which of these oids the repository references, with their sizes. */
export async function lfsObjectsOf(
  db: Db,
  repoId: number,
  oids: readonly string[],
): Promise<Map<string, number>> {
  if (oids.length === 0) return new Map();
  const rows = await db
    .selectFrom("lfsMetaObject")
    .select(["oid", "size"])
    .where("repoId", "=", repoId)
    .where("oid", "in", oids)
    .execute();
  return new Map(rows.map((r) => [r.oid, r.size]));
}

/** The total size of the LFS objects a repository references (what `lfs_size` must equal). */
export async function sumLfsSize(db: Db, repoId: number): Promise<number> {
  const row = await db
    .selectFrom("lfsMetaObject")
    .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("size"), eb.lit(0)).as("total"))
    .where("repoId", "=", repoId)
    .executeTakeFirstOrThrow();
  return Number(row.total);
}

/**
 * Whether the viewer can see some repository that references the object with this size
 * (Forgejo's `LFSObjectAccessible`), judged by the same visibility fragment as every list, so a
 * `public-only` token or a restricted user sees no more here than anywhere else.
 */
export async function lfsObjectVisibleTo(
  db: Db,
  viewer: RepoViewer,
  oid: string,
  size: number,
): Promise<boolean> {
  const row = await db
    .selectFrom("lfsMetaObject")
    .innerJoin("repository", "repository.id", "lfsMetaObject.repoId")
    .select("lfsMetaObject.id")
    .where("lfsMetaObject.oid", "=", oid)
    .where("lfsMetaObject.size", "=", size)
    .where(repoVisibleTo(viewer))
    .limit(1)
    .executeTakeFirst();
  return row !== undefined;
}

/** Which of these oids some repository references (`kiln doctor` finds the store's unreferenced objects). */
export async function referencedLfsOids(db: Db, oids: readonly string[]): Promise<Set<string>> {
  if (oids.length === 0) return new Set();
  const rows = await db
    .selectFrom("lfsMetaObject")
    .select("oid")
    .distinct()
    .where("oid", "in", oids)
    .execute();
  return new Set(rows.map((r) => r.oid));
}

/**
 * The distinct objects the repositories reference and their bytes: what the LFS store must hold
 * for them (each object is stored once, however many repositories count it).
 */
export async function referencedLfsTotal(db: Db): Promise<{ objects: number; bytes: number }> {
  const row = await db
    .selectFrom((eb) => eb.selectFrom("lfsMetaObject").select(["oid", "size"]).distinct().as("o"))
    .select((eb) => [
      eb.fn.countAll<number>().as("objects"),
      eb.fn.coalesce(eb.fn.sum<number>("o.size"), eb.lit(0)).as("bytes"),
    ])
    .executeTakeFirstOrThrow();
  return { objects: Number(row.objects), bytes: Number(row.bytes) };
}
