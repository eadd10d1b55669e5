import { type Kysely, sql } from "kysely";

/**
 * The OAuth2 provider (Forgejo's models/auth oauth2.go), web sign-in sessions and TOTP recovery codes.
 *
 * `oauth2_application`: a user's registered client; `client_secret_hash` is a SHA-256 of the
 * secret (high-entropy, so unsalted like access tokens), `redirect_uris` a JSON array as text.
 * `oauth2_grant`: a user's consent to an application, with its scope, OIDC nonce and Forgejo's
 * refresh `counter` (starts at 1). `oauth2_authorization_code`: single-use codes (stored hashed)
 * with their PKCE challenge and redirect URI; deleting an application cascades to both.
 * `oauth2_signing_key`: the instance's JWT signing key, one row per algorithm, the private JWK
 * sealed with the instance's secret key. `web_session`: the HTML pages' sessions (`id` is a
 * SHA-256 of the cookie), signed in (`user_id`) or half-way through the TOTP step
 * (`pending_user_id`), with `data` as JSON text. `two_factor_recovery_code`: single-use codes,
 * SHA-256 hashed, `used_at` set when one is spent.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("oauth2_application")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("uid", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("client_id", "text", (c) => c.notNull().unique())
    .addColumn("client_secret_hash", "text", (c) => c.notNull())
    .addColumn("confidential_client", "boolean", (c) => c.notNull().defaultTo(true))
    .addColumn("redirect_uris", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("oauth2_application_uid_idx")
    .on("oauth2_application")
    .columns(["uid", "id"])
    .execute();

  await db.schema
    .createTable("oauth2_grant")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("application_id", "bigint", (c) =>
      c.notNull().references("oauth2_application.id").onDelete("cascade"),
    )
    .addColumn("counter", "bigint", (c) => c.notNull().defaultTo(1))
    .addColumn("scope", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("nonce", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("oauth2_grant_user_application_key", ["user_id", "application_id"])
    .execute();
  await db.schema
    .createIndex("oauth2_grant_application_idx")
    .on("oauth2_grant")
    .column("application_id")
    .execute();

  await db.schema
    .createTable("oauth2_authorization_code")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("grant_id", "bigint", (c) => c.notNull().references("oauth2_grant.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull().unique())
    .addColumn("code_challenge", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("code_challenge_method", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("redirect_uri", "text", (c) => c.notNull())
    .addColumn("valid_until", "timestamptz", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("oauth2_authorization_code_grant_idx")
    .on("oauth2_authorization_code")
    .column("grant_id")
    .execute();

  await db.schema
    .createTable("oauth2_signing_key")
    .addColumn("algorithm", "text", (c) => c.primaryKey())
    .addColumn("private_key", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("web_session")
    .addColumn("id", "text", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("pending_user_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("data", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("web_session_expires_idx").on("web_session").column("expires_at").execute();
  await db.schema.createIndex("web_session_user_idx").on("web_session").column("user_id").execute();

  await db.schema
    .createTable("two_factor_recovery_code")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("code_hash", "text", (c) => c.notNull())
    .addColumn("used_at", "timestamptz")
    .addUniqueConstraint("two_factor_recovery_code_user_hash_key", ["user_id", "code_hash"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "two_factor_recovery_code",
    "web_session",
    "oauth2_signing_key",
    "oauth2_authorization_code",
    "oauth2_grant",
    "oauth2_application",
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
