import type { Kysely } from "kysely";

/**
 * Looks up the other side of issue relations by index: the issues a given one blocks
 * (`issue_dependency.dependency_id`) and a repository's pinned issues in order.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex("issue_dependency_blocker_idx")
    .on("issue_dependency")
    .column("dependency_id")
    .execute();
  await db.schema
    .createIndex("issue_pinned_idx")
    .on("issue")
    .columns(["repo_id", "is_pull", "pin_order"])
    .where("pin_order", ">", 0)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("issue_pinned_idx").execute();
  await db.schema.dropIndex("issue_dependency_blocker_idx").execute();
}
