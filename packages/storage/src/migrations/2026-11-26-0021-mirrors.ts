import { type Kysely, sql } from "kysely";

/**
 * Pull and push mirrors (Forgejo's models/repo Mirror and PushMirror).
 *
 * `mirror` is the pull side of a repository whose `is_mirror` is set: where it is fetched from
 * (`remote_address`, without credentials), the credentials sealed with the instance's secret key,
 * its interval in milliseconds (0: no periodic sync), when it was last synced and when it is next
 * due (null when the interval is 0), and the last failure. `push_mirror` is one remote a
 * repository is pushed to, named `remote_mirror_<random>` as in Forgejo, with its own interval.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("mirror")
    .addColumn("repo_id", "bigint", (c) => c.primaryKey().references("repository.id").onDelete("cascade"))
    .addColumn("remote_address", "text", (c) => c.notNull())
    .addColumn("credentials", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("interval_ms", "bigint", (c) => c.notNull())
    .addColumn("enable_prune", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("next_update_at", "timestamptz")
    .addColumn("last_error", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("mirror_next_update_idx").on("mirror").column("next_update_at").execute();

  await db.schema
    .createTable("push_mirror")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("remote_name", "text", (c) => c.notNull())
    .addColumn("remote_address", "text", (c) => c.notNull())
    .addColumn("credentials", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("interval_ms", "bigint", (c) => c.notNull())
    .addColumn("sync_on_commit", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("last_update_at", "timestamptz")
    .addColumn("last_error", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("push_mirror_repo_name_key", ["repo_id", "remote_name"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("push_mirror").execute();
  await db.schema.dropTable("mirror").execute();
}
