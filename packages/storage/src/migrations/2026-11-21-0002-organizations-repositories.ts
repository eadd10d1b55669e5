import { type Kysely, sql } from "kysely";

/**
 * Organizations (accounts of type `organization`), their members and teams, repositories and
 * their collaborators: everything the permission service reads.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("repo_admin_change_team_access", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();

  await db.schema
    .createTable("org_user")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("org_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("is_public", "boolean", (c) => c.notNull().defaultTo(false))
    .addUniqueConstraint("org_user_org_user_key", ["org_id", "user_id"])
    .execute();
  await db.schema.createIndex("org_user_user_id_idx").on("org_user").column("user_id").execute();

  await db.schema
    .createTable("team")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("org_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("lower_name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("access_mode", "text", (c) => c.notNull().defaultTo("none"))
    .addColumn("units", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("includes_all_repositories", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("can_create_org_repo", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("team_org_name_key", ["org_id", "lower_name"])
    .addCheckConstraint(
      "team_access_mode_check",
      sql`access_mode in ('none', 'read', 'write', 'admin', 'owner')`,
    )
    .execute();

  await db.schema
    .createTable("team_user")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("team_id", "bigint", (c) => c.notNull().references("team.id").onDelete("cascade"))
    .addColumn("org_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addUniqueConstraint("team_user_team_user_key", ["team_id", "user_id"])
    .execute();
  await db.schema.createIndex("team_user_user_id_idx").on("team_user").column("user_id").execute();

  await db.schema
    .createTable("repository")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("owner_id", "bigint", (c) => c.notNull().references("users.id"))
    .addColumn("owner_name", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("lower_name", "text", (c) => c.notNull())
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("website", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("default_branch", "text", (c) => c.notNull().defaultTo("main"))
    .addColumn("is_private", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_empty", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("is_archived", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_mirror", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_template", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_fork", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("fork_id", "bigint", (c) => c.references("repository.id").onDelete("set null"))
    .addColumn("git_size", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("lfs_size", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("repository_owner_name_key", ["owner_id", "lower_name"])
    .execute();

  await db.schema
    .createTable("team_repo")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("team_id", "bigint", (c) => c.notNull().references("team.id").onDelete("cascade"))
    .addColumn("org_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addUniqueConstraint("team_repo_team_repo_key", ["team_id", "repo_id"])
    .execute();
  await db.schema.createIndex("team_repo_repo_id_idx").on("team_repo").column("repo_id").execute();

  await db.schema
    .createTable("collaboration")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("mode", "text", (c) => c.notNull())
    .addUniqueConstraint("collaboration_repo_user_key", ["repo_id", "user_id"])
    .addCheckConstraint("collaboration_mode_check", sql`mode in ('read', 'write', 'admin')`)
    .execute();
  await db.schema.createIndex("collaboration_user_id_idx").on("collaboration").column("user_id").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["collaboration", "team_repo", "repository", "team_user", "team", "org_user"]) {
    await db.schema.dropTable(table).execute();
  }
  await db.schema.alterTable("users").dropColumn("repo_admin_change_team_access").execute();
}
