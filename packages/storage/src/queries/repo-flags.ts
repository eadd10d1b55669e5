import type { Db } from "../database.js";

/** Repository flags (Forgejo's models/repo/repo_flags.go), by name. */

/** The repository's flags, by name. */
export async function listFlags(db: Db, repoId: number): Promise<string[]> {
  const rows = await db
    .selectFrom("repoFlag")
    .select("name")
    .where("repoId", "=", repoId)
    .orderBy("name")
    .execute();
  return rows.map((r) => r.name);
}

export async function hasFlag(db: Db, repoId: number, name: string): Promise<boolean> {
  const row = await db
    .selectFrom("repoFlag")
    .select("id")
    .where("repoId", "=", repoId)
    .where("name", "=", name)
    .executeTakeFirst();
  return row !== undefined;
}

/** Adds a flag; adding one the repository has changes nothing. */
export async function addFlag(db: Db, repoId: number, name: string): Promise<void> {
  await db
    .insertInto("repoFlag")
    .values({ repoId, name })
    .onConflict((oc) => oc.columns(["repoId", "name"]).doNothing())
    .execute();
}

/** Removes a flag; whether it was there. */
export async function deleteFlag(db: Db, repoId: number, name: string): Promise<boolean> {
  const r = await db
    .deleteFrom("repoFlag")
    .where("repoId", "=", repoId)
    .where("name", "=", name)
    .executeTakeFirst();
  return Number(r.numDeletedRows) > 0;
}

/** Replaces every flag with `names` (none: removes them all). Call inside a transaction. */
export async function replaceFlags(db: Db, repoId: number, names: readonly string[]): Promise<void> {
  await db.deleteFrom("repoFlag").where("repoId", "=", repoId).execute();
  const unique = [...new Set(names)];
  if (unique.length > 0) {
    await db
      .insertInto("repoFlag")
      .values(unique.map((name) => ({ repoId, name })))
      // A concurrent replacement may have added the same name meanwhile.
      .onConflict((oc) => oc.columns(["repoId", "name"]).doNothing())
      .execute();
  }
}
