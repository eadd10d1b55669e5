import { type Kysely, sql } from "kysely";

/**
 * The journal of ref moves (`ref_update`): each move of a branch or tag that has consequences
 * in the database (a merge, a push, a file written through the API) is recorded here before git
 * moves the ref, and deleted in the transaction that records those consequences. A row left by
 * a crash is reconciled against the ref on disk: finished when the ref holds `new_sha`, dropped
 * otherwise. Rows of one operation share `operation` and are settled together.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("ref_update")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("operation", "text", (c) => c.notNull())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("old_sha", "text", (c) => c.notNull())
    .addColumn("new_sha", "text", (c) => c.notNull())
    .addColumn("kind", "text", (c) => c.notNull())
    .addColumn("doer_id", "bigint")
    .addColumn("pull_id", "bigint")
    .addColumn("detail", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("ref_update_operation_idx").on("ref_update").column("operation").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ref_update").execute();
}
