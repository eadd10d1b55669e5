import { type Kysely, sql } from "kysely";

/**
 * SSH keys, deploy keys and GPG keys (Forgejo's models/asymkey PublicKey, DeployKey, GPGKey and
 * GPGKeyImport).
 *
 * `public_key` holds every SSH key once (its SHA256 `fingerprint` is unique across the instance,
 * as Forgejo's checkKeyFingerprint makes it): a user's key (`type` 1, `owner_id` set) or a deploy
 * key (`type` 2, no owner), which `deploy_key` links to repositories (one public key may be deployed
 * to several repositories). `mode` is Forgejo's access mode (1 read, 2 write).
 *
 * `gpg_key` holds primary keys (`primary_key_id` null) and their subkeys (`primary_key_id` = the
 * primary's 16-hex key id), `emails` the user's activated addresses the key's identities matched
 * when it was added (JSON `[{"email","verified"}]`, as Forgejo snapshots them); `gpg_key_import`
 * keeps the armored text of each primary key, which signature verification reads.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("public_key")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("owner_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull().unique())
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("mode", "integer", (c) => c.notNull().defaultTo(2))
    .addColumn("type", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("verified", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("public_key_owner_idx").on("public_key").columns(["owner_id", "id"]).execute();
  await db.schema
    .createIndex("public_key_owner_name_key")
    .on("public_key")
    .columns(["owner_id", "name"])
    .unique()
    .where(sql.ref("type"), "=", 1)
    .execute();

  await db.schema
    .createTable("deploy_key")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("key_id", "bigint", (c) => c.notNull().references("public_key.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("fingerprint", "text", (c) => c.notNull())
    .addColumn("mode", "integer", (c) => c.notNull().defaultTo(1))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("deploy_key_key_repo_key", ["key_id", "repo_id"])
    .addUniqueConstraint("deploy_key_repo_name_key", ["repo_id", "name"])
    .execute();

  await db.schema
    .createTable("gpg_key")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("owner_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("key_id", "text", (c) => c.notNull())
    .addColumn("primary_key_id", "text")
    .addColumn("content", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull())
    .addColumn("expires_at", "timestamptz")
    .addColumn("added_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("emails", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("verified", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("can_sign", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("can_encrypt_comms", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("can_encrypt_storage", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("can_certify", "boolean", (c) => c.notNull().defaultTo(false))
    .execute();
  await db.schema.createIndex("gpg_key_owner_idx").on("gpg_key").columns(["owner_id", "id"]).execute();
  await db.schema.createIndex("gpg_key_key_id_idx").on("gpg_key").column("key_id").execute();
  await db.schema
    .createIndex("gpg_key_primary_key_id_key")
    .on("gpg_key")
    .column("key_id")
    .unique()
    .where(sql.ref("primary_key_id"), "is", null)
    .execute();
  await db.schema.createIndex("gpg_key_primary_idx").on("gpg_key").column("primary_key_id").execute();

  await db.schema
    .createTable("gpg_key_import")
    .addColumn("key_id", "text", (c) => c.primaryKey())
    .addColumn("content", "text", (c) => c.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("gpg_key_import").execute();
  await db.schema.dropTable("gpg_key").execute();
  await db.schema.dropTable("deploy_key").execute();
  await db.schema.dropTable("public_key").execute();
}
