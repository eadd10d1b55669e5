import type { Kysely } from "kysely";

/**
 * Forks and templates (Forgejo's `repository.num_forks` and `template_id`): the number of forks a
 * repository has, recounted with every fork created or deleted, and the template a repository was
 * generated from. Forks are listed by `fork_id`, so it gets an index.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repository")
    .addColumn("num_forks", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("template_id", "bigint", (c) => c.references("repository.id").onDelete("set null"))
    .execute();
  await db.schema.createIndex("repository_fork_id_idx").on("repository").column("fork_id").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("repository_fork_id_idx").execute();
  await db.schema.alterTable("repository").dropColumn("template_id").dropColumn("num_forks").execute();
}
