import type { Kysely } from "kysely";

/**
 * Repository wikis: the size of each repository's `<name>.wiki.git` on disk (one row once the wiki
 * exists, gone with the repository), and the ledger's `wiki` counter (`size:wiki`) per owner.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("repo_wiki")
    .addColumn("repo_id", "integer", (c) => c.primaryKey().references("repository.id").onDelete("cascade"))
    .addColumn("size", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("quota_usage")
    .addColumn("wiki", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("quota_usage").dropColumn("wiki").execute();
  await db.schema.dropTable("repo_wiki").execute();
}
