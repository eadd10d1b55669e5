import type { Kysely } from "kysely";

/**
 * The quota ledger: per-owner counters of each leaf quota subject, changed in the same
 * transaction as the rows they count (decision 7, docs/decisions.md), so a quota check costs one row read.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("quota_usage")
    .addColumn("owner_id", "bigint", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("repos_public", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("repos_private", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("lfs", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("issue_attachments", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("release_attachments", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("artifacts", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("packages", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("quota_usage").execute();
}
