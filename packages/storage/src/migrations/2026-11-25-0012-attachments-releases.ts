import { type Kysely, sql } from "kysely";

/**
 * Releases, attachments and the activity feed's actions (Forgejo's models/repo Release and
 * Attachment, models/activities Action). A release names a tag (which git holds; a draft's tag
 * may not exist yet). An attachment belongs to a release, or to an issue (and maybe one of its
 * comments); its bytes live in the attachments' content-addressed blob store under `blob_key`,
 * `size` being the bytes stored, or it points elsewhere (`external_url`, no bytes). Each counts
 * against its repository's owner in the quota ledger. An action is one entry of an activity
 * feed (`user_id` sees it); the feed itself comes with notifications.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("release")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("publisher_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("tag_name", "text", (c) => c.notNull())
    .addColumn("lower_tag_name", "text", (c) => c.notNull())
    .addColumn("target", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("note", "text", (c) => c.notNull().defaultTo(""))
    // The tag's commit once the tag exists (empty for a draft whose tag does not exist yet).
    .addColumn("sha1", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("is_draft", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_prerelease", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("hide_archive_links", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("release_repo_tag_key", ["repo_id", "lower_tag_name"])
    .execute();
  await sql`create index release_repo_created_idx on release (repo_id, created_at desc, id desc)`.execute(db);

  await db.schema
    .createTable("attachment")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("uuid", "text", (c) => c.notNull().unique())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("issue_id", "bigint", (c) => c.references("issue.id").onDelete("cascade"))
    .addColumn("comment_id", "bigint", (c) => c.references("comment.id").onDelete("cascade"))
    .addColumn("release_id", "bigint", (c) => c.references("release.id").onDelete("cascade"))
    .addColumn("uploader_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("size", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("blob_key", "text")
    .addColumn("external_url", "text")
    .addColumn("download_count", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    // Of a release or of an issue (a comment's attachment names its issue too), never both;
    // stored bytes or an external address, never both.
    .addCheckConstraint("attachment_owner_check", sql`(release_id is null) <> (issue_id is null)`)
    .addCheckConstraint("attachment_comment_check", sql`comment_id is null or issue_id is not null`)
    .addCheckConstraint("attachment_bytes_check", sql`(blob_key is null) <> (external_url is null)`)
    .execute();
  await db.schema.createIndex("attachment_repo_idx").on("attachment").column("repo_id").execute();
  await db.schema.createIndex("attachment_issue_idx").on("attachment").columns(["issue_id", "id"]).execute();
  await db.schema
    .createIndex("attachment_comment_idx")
    .on("attachment")
    .columns(["comment_id", "id"])
    .execute();
  await db.schema
    .createIndex("attachment_release_idx")
    .on("attachment")
    .columns(["release_id", "id"])
    .execute();
  await db.schema.createIndex("attachment_blob_idx").on("attachment").column("blob_key").execute();

  await db.schema
    .createTable("action")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    // Whose feed shows the entry.
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    // Forgejo's ActionType number (24: publish_release).
    .addColumn("op_type", "smallint", (c) => c.notNull())
    .addColumn("act_user_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("repo_id", "bigint", (c) => c.references("repository.id").onDelete("cascade"))
    .addColumn("comment_id", "bigint")
    .addColumn("is_deleted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("ref_name", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("is_private", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create index action_user_idx on action (user_id, created_at desc)`.execute(db);
  await sql`create index action_repo_idx on action (repo_id, created_at desc)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("action").execute();
  await db.schema.dropTable("attachment").execute();
  await db.schema.dropTable("release").execute();
}
