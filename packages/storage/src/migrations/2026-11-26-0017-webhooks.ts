import { type Kysely, sql } from "kysely";

/**
 * Webhooks and their durable delivery queue (Forgejo's models/webhook Webhook and HookTask).
 *
 * A hook belongs to a repository (`repo_id`), to a user or organization (`owner_id`), or to the
 * site: a system hook (`is_system_webhook`, fires for every repository) or a default hook (neither
 * id nor flag: applies to repositories created after it, as Forgejo copies it into them).
 * `events` is Forgejo's HookEvent JSON (push_only, send_everything, choose_events, events{…}), kept
 * as text like the request and response of a delivery (their keys are Forgejo's, not columns);
 * `secret` and `authorization_header` are sealed with the instance's secret key.
 *
 * `hook_task` is the queue: one row per delivery, its payload rendered when the event was recorded
 * (in the transaction of the change). Workers claim due rows with FOR UPDATE SKIP LOCKED and hold
 * them until `claimed_until`; a row left claimed by a killed process is due again once that passes.
 */
// biome-ignore lint/suspicious/noExplicitAny: migrations are frozen in time and typed loosely on purpose
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("webhook")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("repo_id", "bigint", (c) => c.references("repository.id").onDelete("cascade"))
    .addColumn("owner_id", "bigint", (c) => c.references("users.id").onDelete("cascade"))
    .addColumn("is_system_webhook", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("type", "text", (c) => c.notNull())
    .addColumn("url", "text", (c) => c.notNull())
    .addColumn("http_method", "text", (c) => c.notNull().defaultTo("POST"))
    .addColumn("content_type", "text", (c) => c.notNull().defaultTo("json"))
    .addColumn("secret", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("events", "text", (c) => c.notNull())
    .addColumn("branch_filter", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("authorization_header", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("meta", "text", (c) => c.notNull().defaultTo(""))
    .addColumn("is_active", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("updated_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema.createIndex("webhook_repo_idx").on("webhook").column("repo_id").execute();
  await db.schema.createIndex("webhook_owner_idx").on("webhook").column("owner_id").execute();

  await db.schema
    .createTable("hook_task")
    .addColumn("id", "bigserial", (c) => c.primaryKey())
    .addColumn("hook_id", "bigint", (c) => c.notNull().references("webhook.id").onDelete("cascade"))
    .addColumn("uuid", "text", (c) => c.notNull().unique())
    .addColumn("event_type", "text", (c) => c.notNull())
    .addColumn("payload", "text", (c) => c.notNull())
    .addColumn("is_delivered", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("is_succeed", "boolean", (c) => c.notNull().defaultTo(false))
    .addColumn("attempts", "integer", (c) => c.notNull().defaultTo(0))
    .addColumn("next_attempt_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn("claimed_until", "timestamptz")
    .addColumn("delivered_at", "timestamptz")
    .addColumn("request_info", "text")
    .addColumn("response_info", "text")
    .addColumn("created_at", "timestamptz", (c) => c.notNull().defaultTo(sql`now()`))
    .execute();
  await db.schema
    .createIndex("hook_task_due_idx")
    .on("hook_task")
    .column("next_attempt_at")
    .where(sql.ref("is_delivered"), "=", false)
    .execute();
  await db.schema.createIndex("hook_task_hook_idx").on("hook_task").columns(["hook_id", "id"]).execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up()
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("hook_task").execute();
  await db.schema.dropTable("webhook").execute();
}
