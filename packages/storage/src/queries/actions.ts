import type { Insertable } from "kysely";
import type { Db } from "../database.js";
import type { ActionTable } from "../database-attachments.js";

/** Forgejo's ActionType numbers Kiln records. */
export const ActionType = { publishRelease: 24 } as const;

export type NewAction = Insertable<ActionTable>;

/** Records an entry of an activity feed (Forgejo's Action row). */
export async function insertAction(db: Db, row: NewAction): Promise<void> {
  await db.insertInto("action").values(row).execute();
}

/** The entries of a repository's feed, newest first (what the feed API will page through). */
export async function actionsOfRepository(db: Db, repoId: number, limit: number) {
  return db
    .selectFrom("action")
    .selectAll()
    .where("repoId", "=", repoId)
    .where("isDeleted", "=", false)
    .orderBy("createdAt", "desc")
    .orderBy("id", "desc")
    .limit(limit)
    .execute();
}
