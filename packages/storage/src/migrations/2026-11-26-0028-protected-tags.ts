import { type Kysely, sql } from "kysely";

/**
 * Tag protection rules (Forgejo's models/git/protected_tag.go): a name pattern (a glob, or a
 * regular expression between slashes) and the users and teams allowed to create, move or delete
 * the tags it matches, stored by id as JSON arrays, as Forgejo stores them.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("protected_tag")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("name_pattern", "text", (c) => c.notNull())
    .addColumn("allowlist_user_ids", "jsonb", (c) => c.notNull().defaultTo(sql.lit("[]")))
    .addColumn("allowlist_team_ids", "jsonb", (c) => c.notNull().defaultTo(sql.lit("[]")))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("protected_tag_repo_idx").on("protected_tag").column("repo_id").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("protected_tag").execute();
}
