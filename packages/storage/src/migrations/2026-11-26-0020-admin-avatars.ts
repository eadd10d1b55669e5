import { type Kysely, sql } from "kysely";

/**
 * Uploaded avatars of users, organizations and repositories (Forgejo's `user.avatar` and
 * `repository.avatar` columns, and its avatar storage).
 *
 * `users.avatar` and `repository.avatar` hold the hash the avatar is served under
 * (`/avatars/<hash>`, `/repo-avatars/<hash>`), empty when none was uploaded (Kiln then serves a
 * generated identicon). `avatar` maps that hash to the stored bytes: the content-addressed blob
 * key and the content type detected at upload. A row belongs to exactly one user or repository
 * and goes with it (ON DELETE CASCADE), so no row outlives its owner; the blob sweep removes the
 * bytes no row refers to.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("users")
    .addColumn("avatar", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .alterTable("repository")
    .addColumn("avatar", "text", (c) => c.notNull().defaultTo(""))
    .execute();
  await db.schema
    .createTable("avatar")
    .addColumn("hash", "text", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.unique().references("users.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.unique().references("repository.id").onDelete("cascade"))
    .addColumn("blob_key", "text", (c) => c.notNull())
    .addColumn("content_type", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("avatar_one_owner", sql`(user_id is null) <> (repo_id is null)`)
    .execute();
  await db.schema.createIndex("avatar_blob_key_idx").on("avatar").column("blob_key").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("avatar").execute();
  await db.schema.alterTable("repository").dropColumn("avatar").execute();
  await db.schema.alterTable("users").dropColumn("avatar").execute();
}
