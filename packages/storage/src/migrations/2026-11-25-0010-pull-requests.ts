import { type Kysely, sql } from "kysely";

/**
 * Pull requests (Forgejo's models/issues PullRequest, Review, code comments, auto-merge): a pull
 * request is an issue with a head and a base. Its mergeability is kept with the head and base
 * commits it was computed for, so a reader can tell whether it is still current; reviews and
 * review requests share one table as in Forgejo; line comments are comments of type `code` with
 * their review, file, line and commit. A repository's pull request settings (allowed merge styles
 * and their defaults) are one JSON document, as Forgejo keeps them in its unit config.
 */
/** Forgejo's PullRequestsConfig of a new repository, frozen here as this migration wrote it. */
const PULLS_DEFAULTS = {
  allowMergeCommits: true,
  allowRebase: true,
  allowRebaseExplicit: true,
  allowSquashMerge: true,
  allowFastForwardOnlyMerge: true,
  allowManualMerge: false,
  autodetectManualMerge: false,
  allowRebaseUpdate: true,
  defaultDeleteBranchAfterMerge: false,
  defaultMergeStyle: "merge",
  defaultAllowMaintainerEdit: false,
  ignoreWhitespaceConflicts: false,
};

// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repository")
    // Every key, at Forgejo's defaults for a new repository (existing rows get them too).
    .addColumn("pulls_config", "jsonb", (c) => c.notNull().defaultTo(sql.lit(JSON.stringify(PULLS_DEFAULTS))))
    .execute();

  await db.schema
    .createTable("pull_request")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("issue_id", "bigint", (c) => c.notNull().unique().references("issue.id").onDelete("cascade"))
    .addColumn("index", "bigint", (c) => c.notNull())
    .addColumn("base_repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("head_repo_id", "bigint", (c) => c.references("repository.id").onDelete("set null"))
    .addColumn("base_branch", "text", (c) => c.notNull())
    .addColumn("head_branch", "text", (c) => c.notNull())
    .addColumn("merge_base", "text", (c) => c.notNull().defaultTo(""))
    // The head and base commits the status below was computed for.
    .addColumn("head_commit_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("base_commit_id", "text", (c) => c.notNull().defaultTo(""))
    // Forgejo's PullRequestStatus: 0 conflict, 1 checking, 2 mergeable, 3 manually merged, 4 error, 5 empty, 6 ancestor.
    .addColumn("status", "smallint", (c) => c.notNull().defaultTo(1))
    .addColumn("conflicted_files", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("changed_protected_files", "jsonb", (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
    .addColumn("commits_ahead", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("commits_behind", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("additions", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("deletions", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("changed_files", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("allow_maintainer_edit", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("has_merged", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("merged_commit_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("merger_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("merged_at", "timestamptz")
    .addColumn("flow", "smallint", (c) => c.notNull().defaultTo(0))
    .addUniqueConstraint("pull_request_base_index_key", ["base_repo_id", "index"])
    .execute();
  await db.schema
    .createIndex("pull_request_base_branch_idx")
    .on("pull_request")
    .columns(["base_repo_id", "base_branch"])
    .execute();
  await db.schema
    .createIndex("pull_request_head_branch_idx")
    .on("pull_request")
    .columns(["head_repo_id", "head_branch"])
    .execute();

  // Reviews and review requests. Type: 0 pending, 1 approve, 2 comment, 3 request changes, 4 review requested.
  await db.schema
    .createTable("review")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("type", "smallint", (c) => c.notNull())
    .addColumn("reviewer_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("reviewer_team_id", "bigint", (c) => c.references("team.id").onDelete("cascade"))
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("official", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("commit_id", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("stale", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("dismissed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("review_reviewer_check", sql`(reviewer_id is null) <> (reviewer_team_id is null)`)
    .execute();
  await db.schema.createIndex("review_issue_idx").on("review").columns(["issue_id", "created_at"]).execute();
  await db.schema.createIndex("review_reviewer_idx").on("review").column("reviewer_id").execute();

  // Line comments of reviews (type 21, `code`) and the timeline entries of reviews and requests.
  await db.schema
    .alterTable("comment")
    .addColumn("review_id", "bigint", (c) => c.references("review.id").onDelete("cascade"))
    .addColumn("tree_path", "text", (c) => c.notNull().defaultTo(""))
    // The line a code comment is on: positive on the new side, negative on the old side.
    .addColumn("line", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("commit_sha", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("patch", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("invalidated", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("resolve_doer_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("assignee_team_id", "bigint", (c) => c.references("team.id").onDelete("cascade"))
    .execute();
  await db.schema
    .createIndex("comment_review_idx")
    .on("comment")
    .column("review_id")
    .where("review_id", "is not", null)
    .execute();

  // A merge scheduled for when the pull request may be merged (`merge_when_checks_succeed`).
  await db.schema
    .createTable("pull_auto_merge")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("pull_id", "bigint", (c) =>
      c.notNull().unique().references("pull_request.id").onDelete("cascade"),
    )
    .addColumn("doer_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("merge_style", "text", (c) => c.notNull())
    .addColumn("message", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("delete_branch_after_merge", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("pull_auto_merge").execute();
  await db.schema.dropIndex("comment_review_idx").execute();
  await db.schema
    .alterTable("comment")
    .dropColumn("review_id")
    .dropColumn("tree_path")
    .dropColumn("line")
    .dropColumn("commit_sha")
    .dropColumn("patch")
    .dropColumn("invalidated")
    .dropColumn("resolve_doer_id")
    .dropColumn("assignee_team_id")
    .execute();
  await db.schema.dropTable("review").execute();
  await db.schema.dropTable("pull_request").execute();
  await db.schema.alterTable("repository").dropColumn("pulls_config").execute();
}
