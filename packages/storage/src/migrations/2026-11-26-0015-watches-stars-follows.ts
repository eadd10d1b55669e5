import { type Kysely, sql } from "kysely";

/**
 * Watching, stars and following (Forgejo's models/repo Watch and Star, models/user Follow).
 * A watch's mode is Forgejo's: 1 normal (the user chose to watch), 2 don't (chose not to; an
 * automatic watch never overrides it), 3 auto (watching because the user created or changed the
 * repository). Counters (watchers and stars of a repository; followers, following and stars of a
 * user) are columns recounted in the transaction of each change, as the issue counters are.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("watch")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("mode", "smallint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("watch_user_repo_key", ["user_id", "repo_id"])
    .execute();
  await db.schema.createIndex("watch_repo_idx").on("watch").columns(["repo_id", "mode"]).execute();

  await db.schema
    .createTable("star")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("star_user_repo_key", ["user_id", "repo_id"])
    .execute();
  await db.schema.createIndex("star_repo_idx").on("star").column("repo_id").execute();

  await db.schema
    .createTable("follow")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    // The follower.
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // The one followed.
    .addColumn("follow_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("follow_user_follow_key", ["user_id", "follow_id"])
    .execute();
  await db.schema.createIndex("follow_follow_idx").on("follow").column("follow_id").execute();

  await db.schema
    .alterTable("repository")
    .addColumn("num_watches", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_stars", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("users")
    .addColumn("num_followers", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_following", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_stars", "integer", (c) => c.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .dropColumn("num_followers")
    .dropColumn("num_following")
    .dropColumn("num_stars")
    .execute();
  await db.schema.alterTable("repository").dropColumn("num_watches").dropColumn("num_stars").execute();
  for (const table of ["follow", "star", "watch"]) {
    await db.schema.dropTable(table).execute();
  }
}
