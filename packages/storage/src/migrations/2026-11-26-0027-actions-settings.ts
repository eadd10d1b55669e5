import { type Kysely, sql } from "kysely";

/**
 * Forgejo's Actions settings as data (models/secret, models/actions): secrets and variables of a
 * repository or an owner (user or organization), the runner registration token of each scope, and
 * the runs, jobs and tasks a runner would report. Kiln runs no workflows: runs come from
 * `workflow_dispatch` requests (and could come from a runner protocol later).
 *
 * A secret or variable belongs to exactly one of an owner or a repository (Forgejo's OwnerID /
 * RepoID with the other 0); names are unique within it, upper-cased as Forgejo stores them.
 * Secret values are sealed with the instance's SECRET_KEY. A runner token's `scope_key` is
 * `global`, `owner:<id>` or `repo:<id>`: one token per scope, kept until it is reset.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  for (const table of ["action_secret", "action_variable"]) {
    await db.schema
      .createTable(table)
      .addColumn("id", "bigserial", (c) => c.primaryKey())
      .addColumn("owner_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
      .addColumn("repo_id", "bigint", (c) => c.references("repository.id").onDelete("cascade"))
      .addColumn("name", "text", (c) => c.notNull())
      // Secrets: the sealed value; variables: the value as written.
      .addColumn("data", "text", (c) => c.notNull())
      .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
      .addCheckConstraint(`${table}_one_scope`, sql`(owner_id is null) <> (repo_id is null)`)
      .execute();
    await db.schema
      .createIndex(`${table}_owner_name_key`)
      .on(table)
      .columns(["owner_id", "name"])
      .unique()
      .where(sql.ref("repo_id"), "is", null)
      .execute();
    await db.schema
      .createIndex(`${table}_repo_name_key`)
      .on(table)
      .columns(["repo_id", "name"])
      .unique()
      .where(sql.ref("owner_id"), "is", null)
      .execute();
  }

  await db.schema
    .createTable("action_runner_token")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("scope_key", "text", (c) => c.notNull().unique())
    .addColumn("owner_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.references("repository.id").onDelete("cascade"))
    // Sealed with SECRET_KEY: Forgejo shows the same token again until it is reset.
    .addColumn("token", "text", (c) => c.notNull())
    .addColumn("token_hash", "text", (c) => c.notNull().unique())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable("action_run")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.notNull().references("repository.id").onDelete("cascade"))
    .addColumn("owner_id", "bigint", (c) => c.notNull())
    // The run number within the repository (Forgejo's Index).
    .addColumn("index", "bigint", (c) => c.notNull())
    .addColumn("title", "text", (c) => c.notNull().defaultTo(""))
    // The workflow file's name, e.g. `ci.yml`.
    .addColumn("workflow_id", "text", (c) => c.notNull())
    .addColumn("trigger_user_id", "bigint", (c) => c.references("users.id").onDelete("set null"))
    .addColumn("ref", "text", (c) => c.notNull())
    .addColumn("commit_sha", "text", (c) => c.notNull())
    .addColumn("event", "text", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    // The event's inputs (workflow_dispatch), as JSON.
    .addColumn("inputs", "text", (c) => c.notNull().defaultTo("{}"))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("started_at", "timestamptz")
    .addColumn("stopped_at", "timestamptz")
    .addUniqueConstraint("action_run_repo_index_key", ["repo_id", "index"])
    .execute();

  await db.schema
    .createTable("action_run_job")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("run_id", "bigint", (c) => c.notNull().references("action_run.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.notNull())
    .addColumn("owner_id", "bigint", (c) => c.notNull())
    .addColumn("name", "text", (c) => c.notNull())
    // JSON arrays of strings.
    .addColumn("needs", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("runs_on", "text", (c) => c.notNull().defaultTo("[]"))
    .addColumn("task_id", "bigint", (c) => c.notNull().defaultTo(0))
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("action_run_job_run_idx").on("action_run_job").column("run_id").execute();
  await db.schema
    .createIndex("action_run_job_status_idx")
    .on("action_run_job")
    .columns(["status", "owner_id", "repo_id"])
    .execute();

  await db.schema
    .createTable("action_task")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("job_id", "bigint", (c) => c.notNull().references("action_run_job.id").onDelete("cascade"))
    .addColumn("repo_id", "bigint", (c) => c.notNull())
    .addColumn("owner_id", "bigint", (c) => c.notNull())
    .addColumn("status", "text", (c) => c.notNull())
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("started_at", "timestamptz")
    .addColumn("stopped_at", "timestamptz")
    .execute();
  await db.schema.createIndex("action_task_repo_idx").on("action_task").columns(["repo_id", "id"]).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    "action_task",
    "action_run_job",
    "action_run",
    "action_runner_token",
    "action_variable",
    "action_secret",
  ])
    await db.schema.dropTable(table).execute();
}
