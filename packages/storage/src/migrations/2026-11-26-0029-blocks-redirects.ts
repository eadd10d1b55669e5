import { type Kysely, sql } from "kysely";

/**
 * Blocked users (Forgejo's models/user/block.go, `forgejo_blocked_user`: `user_id` blocks
 * `block_id`), the redirects renames leave behind (Forgejo's `user_redirect`: an old lower-case
 * name → the account; `repo_redirect`: owner + old lower-case name → the repository), and the
 * journal of repository directories still to move after a committed rename or transfer
 * (`repo_move`), which start-up finishes after a crash.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("blocked_user")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("block_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("blocked_user_pair", ["user_id", "block_id"])
    .execute();
  await db.schema.createIndex("blocked_user_block_idx").on("blocked_user").column("block_id").execute();
  await db.schema
    .createTable("user_redirect")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("lower_name", "text", (c) => c.notNull().unique())
    .addColumn("redirect_user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .execute();
  await db.schema
    .createTable("repo_redirect")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("owner_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("lower_name", "text", (c) => c.notNull())
    .addColumn("redirect_repo_id", "bigint", (c) =>
      c.notNull().references("repository.id").onDelete("cascade"),
    )
    .addUniqueConstraint("repo_redirect_owner_name", ["owner_id", "lower_name"])
    .execute();
  await db.schema
    .createTable("repo_move")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("from_owner", "text", (c) => c.notNull())
    .addColumn("from_name", "text", (c) => c.notNull())
    .addColumn("to_owner", "text", (c) => c.notNull())
    .addColumn("to_name", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["repo_move", "repo_redirect", "user_redirect", "blocked_user"]) {
    await db.schema.dropTable(table).execute();
  }
}
