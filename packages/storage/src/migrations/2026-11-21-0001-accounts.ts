import { type Kysely, sql } from "kysely";

/** Users and organizations, their e-mail addresses, access tokens and TOTP enrolments. */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("users")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull().defaultTo("individual"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("lower_name", "text", (c) => c.notNull().unique())
    .addColumn("full_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("email", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("keep_email_private", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("passwd", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("must_change_password", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("login_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("login_source", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("is_admin", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("is_restricted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("prohibit_login", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("visibility", "text", (c) => c.notNull().defaultTo("public"))
    .addColumn("location", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("website", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("pronouns", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("language", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("theme", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("diff_view_style", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("hide_activity", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("hide_pronouns", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("enable_repo_unit_hints", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("max_repo_creation", "integer", (c) => c.notNull().defaultTo(-1))
    .addColumn("allow_create_organization", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("allow_git_hook", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("allow_import_local", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("last_login_at", "timestamptz")
    .addCheckConstraint("users_type_check", sql`type in ('individual', 'organization')`)
    .addCheckConstraint("users_visibility_check", sql`visibility in ('public', 'limited', 'private')`)
    .execute();

  await db.schema
    .createTable("email_address")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("email", "text", (c) => c.notNull())
    .addColumn("lower_email", "text", (c) => c.notNull().unique())
    .addColumn("is_activated", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("is_primary", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex("email_address_user_id_idx").on("email_address").column("user_id").execute();

  await db.schema
    .createTable("access_token")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("token_last_eight", "text", (c) => c.notNull())
    .addColumn("scope", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("access_token_user_name_key", ["user_id", "name"])
    .execute();

  await db.schema
    .createTable("two_factor")
    .addColumn("user_id", "bigint", (c) => c.primaryKey().references("users.id").onDelete("cascade"))
    .addColumn("secret", "text", (c) => c.notNull())
    .addColumn("last_used_passcode", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["two_factor", "access_token", "email_address", "users"]) {
    await db.schema.dropTable(table).execute();
  }
}
