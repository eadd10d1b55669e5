import type { Db } from "../database.js";

/**
 * Leaves `oldName` leading to the account (Forgejo's NewUserRedirect): an older redirect of the
 * same name is replaced, and one of the new name (the account took it back) is removed.
 */
export async function addUserRedirect(
  db: Db,
  userId: number,
  oldName: string,
  newName: string,
): Promise<void> {
  const oldLower = oldName.toLowerCase();
  await deleteUserRedirect(db, newName);
  if (oldLower === newName.toLowerCase()) return;
  await db
    .insertInto("userRedirect")
    .values({ lowerName: oldLower, redirectUserId: userId })
    .onConflict((oc) => oc.column("lowerName").doUpdateSet({ redirectUserId: userId }))
    .execute();
}

/** Removes the redirect of a name (an account now carries it). */
export async function deleteUserRedirect(db: Db, name: string): Promise<void> {
  await db.deleteFrom("userRedirect").where("lowerName", "=", name.toLowerCase()).execute();
}

/** The account an old name leads to, if any. */
export async function lookupUserRedirect(db: Db, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("userRedirect")
    .select("redirectUserId")
    .where("lowerName", "=", name.toLowerCase())
    .executeTakeFirst();
  return row?.redirectUserId;
}

/**
 * Leaves `ownerId/oldName` leading to the repository (Forgejo's NewRepoRedirect); a redirect of
 * the new name under that owner is removed.
 */
export async function addRepoRedirect(
  db: Db,
  ownerId: number,
  repoId: number,
  oldName: string,
  newName: string,
): Promise<void> {
  await deleteRepoRedirect(db, ownerId, newName);
  if (oldName.toLowerCase() === newName.toLowerCase()) return;
  await setRepoRedirect(db, ownerId, oldName, repoId);
}

/** Makes `ownerId/name` lead to the repository (a transfer leaves the old owner's name so). */
export async function setRepoRedirect(db: Db, ownerId: number, name: string, repoId: number): Promise<void> {
  await db
    .insertInto("repoRedirect")
    .values({ ownerId, lowerName: name.toLowerCase(), redirectRepoId: repoId })
    .onConflict((oc) => oc.columns(["ownerId", "lowerName"]).doUpdateSet({ redirectRepoId: repoId }))
    .execute();
}

/** Removes the redirect of a repository name under an owner (a repository now carries it). */
export async function deleteRepoRedirect(db: Db, ownerId: number, name: string): Promise<void> {
  await db
    .deleteFrom("repoRedirect")
    .where("ownerId", "=", ownerId)
    .where("lowerName", "=", name.toLowerCase())
    .execute();
}

/** The repository an old `owner/name` leads to, if any. */
export async function lookupRepoRedirect(db: Db, ownerId: number, name: string): Promise<number | undefined> {
  const row = await db
    .selectFrom("repoRedirect")
    .select("redirectRepoId")
    .where("ownerId", "=", ownerId)
    .where("lowerName", "=", name.toLowerCase())
    .executeTakeFirst();
  return row?.redirectRepoId;
}
