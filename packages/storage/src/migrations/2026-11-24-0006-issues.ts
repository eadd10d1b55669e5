import { type Kysely, sql } from "kysely";

/**
 * The issue tracker (Forgejo's models/issues): issues and pull requests share one table and one
 * number sequence per repository; labels belong to a repository or an organization; milestones,
 * comments (plain comments and timeline events), assignees, tracked time, stopwatches,
 * subscriptions, reactions, dependencies and the per-user notifications issues cause. Counters
 * Forgejo shows (open and closed issues of a repository, a milestone, a label; comments of an
 * issue) are columns recounted in the transaction of each change.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("repository")
    .addColumn("num_issues", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_closed_issues", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_pulls", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_closed_pulls", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_milestones", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_closed_milestones", "integer", (c) => c.notNull().defaultTo(0))
    .execute();

  // The next issue number of a repository (issues and pull requests count together).
  await db.schema
    .createTable("issue_index")
    .addColumn("repo_id", "bigint", (c) => c.primaryKey().references("repository.id").onDelete("cascade"))
    .addColumn("max_index", "bigint", (c) => c.notNull().defaultTo(0))
    .execute();

  await db.schema
    .createTable("label")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.references("repository.id").onDelete("cascade"))
    .addColumn("org_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("exclusive", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("description", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("color", "text", (c) => c.notNull())
    .addColumn("num_issues", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_closed_issues", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("archived_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addCheckConstraint("label_owner_check", sql`(repo_id is null) <> (org_id is null)`)
    .execute();
  await db.schema.createIndex("label_repo_id_idx").on("label").column("repo_id").execute();
  await db.schema.createIndex("label_org_id_idx").on("label").column("org_id").execute();

  await db.schema
    .createTable("milestone")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("name", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("is_closed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("num_issues", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_closed_issues", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("deadline", "timestamptz")
    .addColumn("closed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("milestone_repo_id_idx")
    .on("milestone")
    .columns(["repo_id", "is_closed"])
    .execute();

  await db.schema
    .createTable("issue")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("index", "bigint", (c) => c.notNull())
    .addColumn("poster_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("title", "text", (c) => c.notNull())
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("milestone_id", "bigint", (c) => c.references("milestone.id").onDelete("set null"))
    .addColumn("is_closed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_pull", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_locked", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("ref", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("pin_order", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("num_comments", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("deadline", "timestamptz")
    .addColumn("closed_at", "timestamptz")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("search", sql`tsvector`, (c) =>
      c.generatedAlwaysAs(sql`to_tsvector('simple', title || ' ' || content)`).stored(),
    )
    .addUniqueConstraint("issue_repo_index_key", ["repo_id", "index"])
    .execute();
  await db.schema
    .createIndex("issue_repo_list_idx")
    .on("issue")
    .columns(["repo_id", "is_pull", "is_closed", "created_at"])
    .execute();
  await db.schema.createIndex("issue_poster_id_idx").on("issue").column("poster_id").execute();
  await db.schema.createIndex("issue_milestone_id_idx").on("issue").column("milestone_id").execute();
  await db.schema
    .createIndex("issue_updated_at_idx")
    .on("issue")
    .columns(["repo_id", "updated_at"])
    .execute();
  await sql`create index issue_search_idx on issue using gin (search)`.execute(db);

  await db.schema
    .createTable("issue_label")
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("label_id", "bigint", (c) => c.notNull().references("label.id").onDelete("cascade"))
    .addPrimaryKeyConstraint("issue_label_pkey", ["issue_id", "label_id"])
    .execute();
  await db.schema.createIndex("issue_label_label_id_idx").on("issue_label").column("label_id").execute();

  await db.schema
    .createTable("issue_assignees")
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("assignee_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint("issue_assignees_pkey", ["issue_id", "assignee_id"])
    .execute();
  await db.schema
    .createIndex("issue_assignees_assignee_id_idx")
    .on("issue_assignees")
    .column("assignee_id")
    .execute();

  // Users an issue concerns: mentioned in its body or comments (for `mentioned_by`).
  await db.schema
    .createTable("issue_user")
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("is_mentioned", "boolean", (c) => c.notNull().defaultTo(false))
    .addPrimaryKeyConstraint("issue_user_pkey", ["issue_id", "user_id"])
    .execute();
  await db.schema.createIndex("issue_user_user_id_idx").on("issue_user").column("user_id").execute();

  // Comments and timeline events: `type` is Forgejo's CommentType (0 = a plain comment).
  await db.schema
    .createTable("comment")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("type", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("poster_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("content", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("label_id", "bigint", (c) => c.references("label.id").onDelete("cascade"))
    .addColumn("old_milestone_id", "bigint")
    .addColumn("milestone_id", "bigint")
    .addColumn("assignee_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("removed_assignee", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("old_title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("new_title", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("old_ref", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("new_ref", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("dependent_issue_id", "bigint", (c) => c.references("issue.id").onDelete("cascade"))
    .addColumn("time_id", "bigint")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("search", sql`tsvector`, (c) =>
      c.generatedAlwaysAs(sql`case when type = 0 then to_tsvector('simple', content) end`).stored(),
    )
    .execute();
  await db.schema
    .createIndex("comment_issue_id_idx")
    .on("comment")
    .columns(["issue_id", "created_at"])
    .execute();
  await db.schema.createIndex("comment_poster_id_idx").on("comment").column("poster_id").execute();
  await sql`create index comment_search_idx on comment using gin (search)`.execute(db);

  await db.schema
    .createTable("tracked_time")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("time", "bigint", (c) => c.notNull())
    .addColumn("deleted", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("tracked_time_issue_id_idx").on("tracked_time").column("issue_id").execute();
  await db.schema.createIndex("tracked_time_user_id_idx").on("tracked_time").column("user_id").execute();

  await db.schema
    .createTable("stopwatch")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("stopwatch_issue_user_key", ["issue_id", "user_id"])
    .execute();

  await db.schema
    .createTable("issue_watch")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("is_watching", "boolean", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("issue_watch_issue_user_key", ["issue_id", "user_id"])
    .execute();

  await db.schema
    .createTable("reaction")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("comment_id", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("user_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("reaction_unique_key", ["type", "issue_id", "comment_id", "user_id"])
    .execute();

  await db.schema
    .createTable("issue_dependency")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("issue_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("dependency_id", "bigint", (c) => c.notNull().references("issue.id").onDelete("cascade"))
    .addColumn("user_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint("issue_dependency_key", ["issue_id", "dependency_id"])
    .execute();

  // What a user is told about (Forgejo's models/activities Notification): status 1 unread,
  // 2 read, 3 pinned; source 1 issue, 2 pull request, 3 commit, 4 repository.
  await db.schema
    .createTable("notification")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("user_id", "bigint", (c) => c.notNull().references("users.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("status", "smallint", (c) => c.notNull())
    .addColumn("source", "smallint", (c) => c.notNull())
    .addColumn("issue_id", "bigint", (c) => c.references("issue.id").onDelete("cascade"))
    .addColumn("comment_id", "bigint", (c) => c.references("comment.id").onDelete("cascade"))
    .addColumn("commit_id", "text")
    .addColumn("updated_by", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("notification_user_idx")
    .on("notification")
    .columns(["user_id", "status", "updated_at"])
    .execute();
  await db.schema
    .createIndex("notification_issue_idx")
    .on("notification")
    .columns(["issue_id", "user_id"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "notification",
    "issue_dependency",
    "reaction",
    "issue_watch",
    "stopwatch",
    "tracked_time",
    "comment",
    "issue_user",
    "issue_assignees",
    "issue_label",
    "issue",
    "milestone",
    "label",
    "issue_index",
  ])
    await db.schema.dropTable(table).execute();
  for (const column of [
    "num_issues",
    "num_closed_issues",
    "num_pulls",
    "num_closed_pulls",
    "num_milestones",
    "num_closed_milestones",
  ])
    await db.schema.alterTable("repository").dropColumn(column).execute();
}
