import type { Db } from "../database.js";
import type { AvatarRow } from "../database-avatars.js";

/** Whose avatar: an account (user or organization) or a repository. */
export type AvatarOwner = { readonly userId: number } | { readonly repoId: number };

/** The stored avatar served under `hash` for that kind of owner, if any. */
export async function findAvatar(
  db: Db,
  kind: "user" | "repo",
  hash: string,
): Promise<AvatarRow | undefined> {
  return db
    .selectFrom("avatar")
    .selectAll()
    .where("hash", "=", hash)
    .where(kind === "user" ? "userId" : "repoId", "is not", null)
    .executeTakeFirst();
}

/**
 * Makes `row` the avatar of its owner: the previous row goes, the new one is inserted and the
 * owner's `avatar` column names it. Run in a transaction. Answers false when the owner is gone.
 */
export async function setAvatar(
  db: Db,
  owner: AvatarOwner,
  row: { hash: string; blobKey: string; contentType: string; size: number },
): Promise<boolean> {
  if (!(await clearAvatar(db, owner))) return false;
  await db
    .insertInto("avatar")
    .values({
      ...row,
      userId: "userId" in owner ? owner.userId : null,
      repoId: "repoId" in owner ? owner.repoId : null,
    })
    .onConflict((oc) => oc.column("hash").doNothing())
    .execute();
  await setColumn(db, owner, row.hash);
  return true;
}

/** Removes the owner's avatar row and empties its `avatar` column; false when the owner is gone. */
export async function clearAvatar(db: Db, owner: AvatarOwner): Promise<boolean> {
  await db
    .deleteFrom("avatar")
    .where(...ownerColumn(owner))
    .execute();
  return setColumn(db, owner, "");
}

async function setColumn(db: Db, owner: AvatarOwner, hash: string): Promise<boolean> {
  const result =
    "userId" in owner
      ? await db.updateTable("users").set({ avatar: hash }).where("id", "=", owner.userId).executeTakeFirst()
      : await db
          .updateTable("repository")
          .set({ avatar: hash })
          .where("id", "=", owner.repoId)
          .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

function ownerColumn(owner: AvatarOwner): ["userId" | "repoId", "=", number] {
  return "userId" in owner ? ["userId", "=", owner.userId] : ["repoId", "=", owner.repoId];
}

/** Which of these blob keys an avatar row refers to (for the blob sweep). */
export async function referencedBlobs(db: Db, keys: readonly string[]): Promise<ReadonlySet<string>> {
  if (keys.length === 0) return new Set();
  const rows = await db.selectFrom("avatar").select("blobKey").where("blobKey", "in", keys).execute();
  return new Set(rows.map((r) => r.blobKey));
}
