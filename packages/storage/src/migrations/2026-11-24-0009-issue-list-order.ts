import type { Kysely } from "kysely";

/**
 * A repository's issues newest first, by state and in all, without sorting them: the first page
 * of a list of 100,000 issues reads 30 index entries. (The index of 0006 leads with `is_pull`,
 * which serves lists of one kind; the API's default lists both kinds.)
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("issue_repo_state_created_idx")
    .on("issue")
    .columns(["repo_id", "is_closed", "created_at", "id"])
    .execute();
  await db.schema
    .createIndex("issue_repo_created_idx")
    .on("issue")
    .columns(["repo_id", "created_at", "id"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("issue_repo_created_idx").execute();
  await db.schema.dropIndex("issue_repo_state_created_idx").execute();
}
