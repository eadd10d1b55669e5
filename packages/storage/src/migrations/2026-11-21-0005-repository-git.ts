import { type Kysely, sql } from "kysely";

/**
 * What repositories need beyond their row: the LFS objects each one references (their sizes are
 * what `lfs_size` sums), branch protection rules (whitelists keep user and team ids, so renames
 * do not break them), pending ownership transfers, and a mirror's origin.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repository")
    .addColumn("original_url", "text", (c) => c.notNull().defaultTo(""))
    .execute();

  await db.schema
    .createTable("lfs_meta_object")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("oid", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("lfs_meta_object_repo_oid_key", ["repo_id", "oid"])
    .execute();
  await db.schema.createIndex("lfs_meta_object_oid_idx").on("lfs_meta_object").column("oid").execute();

  await db.schema
    .createTable("protected_branch")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("rule_name", "text", (c) => c.notNull())
    .addColumn("priority", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("settings", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("protected_branch_repo_rule_key", ["repo_id", "rule_name"])
    .execute();

  await db.schema
    .createTable("repo_transfer")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) =>
      c.notNull().unique().references("repository.id").onDelete("cascade"),
    )
    .addColumn("doer_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("recipient_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("team_ids", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["repo_transfer", "protected_branch", "lfs_meta_object"])
    await db.schema.dropTable(table).execute();
  await db.schema.alterTable("repository").dropColumn("original_url").execute();
}
