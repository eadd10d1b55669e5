import { type Kysely, sql } from "kysely";

/**
 * Actions artifacts (Gitea 1.23's ActionArtifact, without a runner protocol): the zip archive one
 * workflow run of a repository uploaded under a name, stored once in the artifacts' blob store
 * (`blob_key`, the sha256 of its bytes) and counted against the repository's owner by its stored
 * (compressed) size until it expires. A run is the number the uploader gives, scoped to the
 * repository: Kiln runs no workflows, so there is no run table to point at.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("action_artifact")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("run_id", "bigint", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("uploader_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("head_sha", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("blob_key", "text", (c) => c.notNull())
    // Bytes stored: the zip archive as uploaded, i.e. the compressed size the quota counts.
    .addColumn("size", "bigint", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("expires_at", "timestamptz", (c) => c.notNull())
    .addUniqueConstraint("action_artifact_run_name_key", ["repo_id", "run_id", "name"])
    .execute();
  // The list's name filter; the expiry task's scan; the blob sweep's "is this key referenced".
  await db.schema
    .createIndex("action_artifact_repo_name_idx")
    .on("action_artifact")
    .columns(["repo_id", "name"])
    .execute();
  await db.schema
    .createIndex("action_artifact_expires_idx")
    .on("action_artifact")
    .column("expires_at")
    .execute();
  await db.schema.createIndex("action_artifact_blob_idx").on("action_artifact").column("blob_key").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("action_artifact").execute();
}
