import { type Kysely, sql } from "kysely";

/**
 * Packages (Forgejo's models/packages): a package is a name of a type owned by a user or an
 * organization, maybe linked to a repository of that owner; it has versions, each with its
 * type's metadata and properties (npm's dist-tags), and files. A file names the content-addressed
 * blob holding its bytes (the sha256, the blob store's key) and keeps the blob's size and other
 * hashes itself, so no blob table has to be kept in step: the blob store's sweep asks which keys
 * files still name. Deleting an owner deletes its packages; deleting a repository unlinks them.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("package")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("owner_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("lower_name", "text", (c) => c.notNull())
    .addColumn("repo_id", "bigint", (c) => c.references("repository.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("package_owner_type_name_key", ["owner_id", "type", "lower_name"])
    .execute();
  await db.schema.createIndex("package_repo_idx").on("package").column("repo_id").execute();

  await db.schema
    .createTable("package_version")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("package_id", "bigint", (c) => c.notNull().references("package.id").onDelete("cascade"))
    .addColumn("creator_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("version", "text", (c) => c.notNull())
    .addColumn("lower_version", "text", (c) => c.notNull())
    .addColumn("metadata", "jsonb", (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn("download_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("package_version_package_version_key", ["package_id", "lower_version"])
    .execute();

  // Properties of a version that its type keeps (npm's dist-tags: name `npm.tag`).
  await db.schema
    .createTable("package_version_property")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("version_id", "bigint", (c) =>
      c.notNull().references("package_version.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("value", "text", (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex("package_version_property_version_idx")
    .on("package_version_property")
    .columns(["version_id", "name"])
    .execute();

  await db.schema
    .createTable("package_file")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("version_id", "bigint", (c) =>
      c.notNull().references("package_version.id").onDelete("cascade"),
    )
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("lower_name", "text", (c) => c.notNull())
    .addColumn("composite_key", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("is_lead", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("hash_md5", "text", (c) => c.notNull())
    .addColumn("hash_sha1", "text", (c) => c.notNull())
    .addColumn("hash_sha512", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("package_file_version_name_key", ["version_id", "lower_name", "composite_key"])
    .execute();
  await db.schema.createIndex("package_file_blob_idx").on("package_file").column("blob_key").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ["package_file", "package_version_property", "package_version", "package"])
    await db.schema.dropTable(table).execute();
}
