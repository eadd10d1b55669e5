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

/** The oldest pending move, locked for the caller's transaction (others wait, so moves stay in order). */
export async function lockFirstMove(db: Db): Promise<RepoMove | undefined> {
  return db
    .selectFrom("repoMove")
    .select(["id", "fromOwner", "fromName", "toOwner", "toName"])
    .orderBy("id")
    .limit(1)
    .forUpdate()
    .executeTakeFirst();
}

/** Marks a move done. */
export async function deleteMove(db: Db, id: number): Promise<void> {
  await db.deleteFrom("repoMove").where("id", "=", id).execute();
}
