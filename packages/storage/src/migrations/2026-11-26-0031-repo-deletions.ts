import { type Kysely, sql } from "kysely";

/**
 * A journal of repository directories to remove: the transaction that deletes a repository's
 * row journals its directory, which is removed after the commit; start-up removes what a crash
 * left journalled, so no directory outlives its row.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("repo_deletion")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("owner", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("repo_deletion").execute();
}
