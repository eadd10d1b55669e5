import type { Db } from "../database.js";

/** A repository directory to move: from `fromOwner/fromName` to `toOwner/toName`. */
export interface RepoMove {
  readonly id: number;
  readonly fromOwner: string;
  readonly fromName: string;
  readonly toOwner: string;
  readonly toName: string;
}

/** Journals a directory move in the transaction that renames or transfers the repository. */
export async function journalMove(db: Db, move: Omit<RepoMove, "id">): Promise<void> {
  await db.insertInto("repoMove").values(move).execute();
}

/** The oldest pending move (moves are carried out in order, by one pass at a time). */
export async function firstMove(db: Db): Promise<RepoMove | undefined> {
  return db
    .selectFrom("repoMove")
    .select(["id", "fromOwner", "fromName", "toOwner", "toName"])
    .orderBy("id")
    .limit(1)
    .executeTakeFirst();
}

/** Marks a move done. */
export async function deleteMove(db: Db, id: number): Promise<void> {
  await db.deleteFrom("repoMove").where("id", "=", id).execute();
}

/** A repository directory to remove: `owner/name`, whose row is gone. */
export interface RepoDeletion {
  readonly id: number;
  readonly owner: string;
  readonly name: string;
}

/** Journals a directory removal in the transaction that deletes the repository's row. */
export async function journalDeletion(db: Db, owner: string, name: string): Promise<number> {
  const row = await db
    .insertInto("repoDeletion")
    .values({ owner, name })
    .returning("id")
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Every journalled removal, oldest first. */
export async function listDeletions(db: Db): Promise<RepoDeletion[]> {
  return db.selectFrom("repoDeletion").select(["id", "owner", "name"]).orderBy("id").execute();
}

/** Marks a removal done. */
export async function deleteDeletion(db: Db, id: number): Promise<void> {
  await db.deleteFrom("repoDeletion").where("id", "=", id).execute();
}

/** Forgets the journalled removals of `owner/name` (a new repository now lives there). */
export async function forgetDeletions(db: Db, owner: string, name: string): Promise<void> {
  await db
    .deleteFrom("repoDeletion")
    .where((eb) => eb(eb.fn("lower", ["owner"]), "=", owner.toLowerCase()))
    .where((eb) => eb(eb.fn("lower", ["name"]), "=", name.toLowerCase()))
    .execute();
}

/** Whether a repository row names `owner/name` now (its directory is a live repository's). */
export async function pathClaimed(db: Db, owner: string, name: string): Promise<boolean> {
  const row = await db
    .selectFrom("repository")
    .select("id")
    .where((eb) => eb(eb.fn("lower", ["ownerName"]), "=", owner.toLowerCase()))
    .where("lowerName", "=", name.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}
