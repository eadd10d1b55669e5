import { type Kysely, sql } from "kysely";

/**
 * Commit statuses (Forgejo's models/git/commit_status.go): what CI and other tools report on a
 * commit, numbered per repository and commit (`index`), grouped by `context`. The creator is kept
 * as an id (null once the account is deleted: shown as Ghost).
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("commit_status")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("sha", "text", (c) => c.notNull())
    .addColumn("index", "bigint", (c) => c.notNull())
    .addColumn("state", "text", (c) => c.notNull())
    .addColumn("target_url", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("context", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("creator_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("commit_status_repo_sha_index_key", ["repo_id", "sha", "index"])
    .execute();
  await db.schema
    .createIndex("commit_status_repo_sha_context_idx")
    .on("commit_status")
    .columns(["repo_id", "sha", "context"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("commit_status").execute();
}
