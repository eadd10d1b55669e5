import { type Kysely, sql } from "kysely";

/**
 * Git LFS file locks (Forgejo's models/git/lfs_lock.go): a path of a repository locked by one
 * user. One lock per path, whatever its case (Forgejo finds locks by `lower(path)`), enforced by
 * a unique index so two concurrent lock requests cannot both win. Locks go with their repository
 * and with their owner's account.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("lfs_lock")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("owner_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("path", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await sql`create unique index lfs_lock_repo_path_key on lfs_lock (repo_id, lower(path))`.execute(db);
  await db.schema.createIndex("lfs_lock_owner_idx").on("lfs_lock").column("owner_id").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("lfs_lock").execute();
}
