import { type Kysely, sql } from "kysely";

/**
 * Repository topics (Forgejo's models/repo/topic.go): a global `topic` per name, the repositories
 * that carry it in `repo_topic`, and the repository's own list (in the order given) in
 * `repository.topics`, which the API returns with the repository as Forgejo stores it.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("topic")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("name", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createTable("repo_topic")
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("topic_id", "bigint", (c) => c.notNull().references("topic.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("repo_topic_pkey", ["repo_id", "topic_id"])
    .execute();
  await db.schema.createIndex("repo_topic_topic_idx").on("repo_topic").column("topic_id").execute();
  await db.schema
    .alterTable("repository")
    .addColumn("topics", "jsonb", (c) => c.notNull().defaultTo(sql.lit("[]")))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("repository").dropColumn("topics").execute();
  await db.schema.dropTable("repo_topic").execute();
  await db.schema.dropTable("topic").execute();
}
