import { type Kysely, sql } from "kysely";

/**
 * One notification per user and issue (Forgejo keeps one and brings it back to unread with each
 * change): the plain index on (issue, user) becomes a unique one, which the upsert of
 * notifications relies on.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("notification_issue_idx").execute();
  await sql`create unique index notification_user_issue_key on notification (user_id, issue_id)
    where issue_id is not null`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("notification_user_issue_key").execute();
  await db.schema
    .createIndex("notification_issue_idx")
    .on("notification")
    .columns(["issue_id", "user_id"])
    .execute();
}
