import type { Paged, PageRequest } from "@kiln/domain";
import { type Insertable, sql, type Updateable } from "kysely";
import type { Db } from "../database.js";
import type { HookTaskRow, HookTaskTable, WebhookRow, WebhookTable } from "../database-webhooks.js";
import { paged } from "./paging.js";

export type NewWebhook = Insertable<WebhookTable>;
export type WebhookChanges = Updateable<WebhookTable>;
export type NewHookTask = Insertable<HookTaskTable>;

/** Where hooks live: a repository, an owner (user or organization), or the site's admin hooks. */
export type HookScope =
  | { readonly repoId: number }
  | { readonly ownerId: number }
  | { readonly admin: "system" | "default" | "all" };

// biome-ignore lint/suspicious/noExplicitAny: a select builder over webhook, narrowed by scope
function scoped<Q extends { where: (...args: any[]) => any }>(query: Q, scope: HookScope): Q {
  if ("repoId" in scope) return query.where("repoId", "=", scope.repoId);
  if ("ownerId" in scope) return query.where("ownerId", "=", scope.ownerId).where("repoId", "is", null);
  const site = query.where("repoId", "is", null).where("ownerId", "is", null);
  if (scope.admin === "system") return site.where("isSystemWebhook", "=", true);
  if (scope.admin === "default") return site.where("isSystemWebhook", "=", false);
  return site;
}

export async function insertWebhook(db: Db, row: NewWebhook): Promise<WebhookRow> {
  return db.insertInto("webhook").values(row).returningAll().executeTakeFirstOrThrow();
}

/** One page of a scope's hooks, oldest first (Forgejo lists by id). */
export async function listWebhooks(db: Db, scope: HookScope, page: PageRequest): Promise<Paged<WebhookRow>> {
  return paged(
    scoped(db.selectFrom("webhook").selectAll(), scope).orderBy("id"),
    scoped(
      db.selectFrom("webhook").select((eb) => eb.fn.countAll().as("count")),
      scope,
    ),
    page,
  );
}

export async function findWebhook(db: Db, scope: HookScope, id: number): Promise<WebhookRow | undefined> {
  return scoped(db.selectFrom("webhook").selectAll(), scope).where("id", "=", id).executeTakeFirst();
}

export async function findWebhookById(db: Db, id: number): Promise<WebhookRow | undefined> {
  return db.selectFrom("webhook").selectAll().where("id", "=", id).executeTakeFirst();
}

export async function updateWebhook(db: Db, id: number, changes: WebhookChanges): Promise<void> {
  await db.updateTable("webhook").set(changes).where("id", "=", id).execute();
}

/** Deletes a hook of a scope (its deliveries go with it); false when there was none. */
export async function deleteWebhook(db: Db, scope: HookScope, id: number): Promise<boolean> {
  const found = await scoped(db.deleteFrom("webhook"), scope).where("id", "=", id).executeTakeFirst();
  return Number(found.numDeletedRows) > 0;
}

/**
 * The active hooks an event in a repository (or, with `repoId` null, of an owner) may fire:
 * the repository's, its owner's, the site's system hooks, and default hooks created before the
 * repository (Forgejo copies those into each new repository).
 */
export async function activeHooksFor(
  db: Db,
  repoId: number | null,
  ownerId: number,
  repoCreatedAt: Date | null,
): Promise<WebhookRow[]> {
  return db
    .selectFrom("webhook")
    .selectAll()
    .where("isActive", "=", true)
    .where((eb) => {
      const site = eb.and([eb("repoId", "is", null), eb("ownerId", "is", null)]);
      const branches = [
        eb.and([eb("ownerId", "=", ownerId), eb("repoId", "is", null)]),
        eb.and([site, eb("isSystemWebhook", "=", true)]),
      ];
      if (repoId !== null) branches.push(eb("repoId", "=", repoId));
      if (repoId !== null && repoCreatedAt !== null) {
        branches.push(
          eb.and([site, eb("isSystemWebhook", "=", false), eb("createdAt", "<=", repoCreatedAt)]),
        );
      }
      return eb.or(branches);
    })
    .orderBy("id")
    .execute();
}

export async function insertHookTasks(db: Db, rows: readonly NewHookTask[]): Promise<void> {
  if (rows.length > 0)
    await db
      .insertInto("hook_task")
      .values([...rows])
      .execute();
}

/**
 * The receiver a hook's URL names, `host[:port]` in lower case (no scheme, user or path), computed
 * in SQL so that the claim can leave out hosts already holding their share of a worker's slots.
 * It groups deliveries for fairness only; it decides nothing about which hosts may be called.
 */
const HOOK_HOST = sql<string>`lower(coalesce(substring(webhook.url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#]*)'), ''))`;

/** A claimed delivery with the receiver (`host[:port]`) its hook's URL names. */
export type ClaimedHookTask = HookTaskRow & { readonly host: string };

/**
 * Claims up to `limit` due deliveries for `leaseMs`: undelivered rows whose next attempt is due
 * and whose claim (if any) has lapsed, oldest due first, locked with FOR UPDATE SKIP LOCKED so
 * that processes sharing the database never claim the same row. Rows of hooks whose receiver is
 * in `skipHosts` are left for later (they stay due, and keep their place). Each claim counts as
 * an attempt.
 */
export async function claimDueTasks(
  db: Db,
  limit: number,
  leaseMs: number,
  skipHosts: readonly string[] = [],
): Promise<ClaimedHookTask[]> {
  const skipped =
    skipHosts.length === 0
      ? sql``
      : sql`and hook_task.hook_id not in (
          select webhook.id from webhook where ${HOOK_HOST} in (${sql.join([...skipHosts])}))`;
  const rows = await sql<{ id: number }>`
    update hook_task set claimed_until = now() + ${`${leaseMs} milliseconds`}::interval,
      attempts = attempts + 1
    where id in (
      select id from hook_task
      where is_delivered = false and next_attempt_at <= now()
        and (claimed_until is null or claimed_until < now())
        ${skipped}
      order by next_attempt_at, id
      limit ${limit}
      for update skip locked
    )
    returning id`.execute(db);
  const ids = rows.rows.map((r) => Number(r.id));
  if (ids.length === 0) return [];
  return db
    .selectFrom("hook_task")
    .innerJoin("webhook", "webhook.id", "hook_task.hookId")
    .selectAll("hook_task")
    .select(HOOK_HOST.as("host"))
    .where("hook_task.id", "in", ids)
    .orderBy("hook_task.nextAttemptAt")
    .orderBy("hook_task.id")
    .execute();
}

/**
 * Gives claimed deliveries back untouched (a worker took more of one receiver than it may hold at
 * once): due again at once, the claim's attempt not counted.
 */
export async function releaseClaims(db: Db, ids: readonly number[]): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("hook_task")
    .set((eb) => ({ claimedUntil: null, attempts: eb("attempts", "-", 1) }))
    .where("id", "in", [...ids])
    .where("isDelivered", "=", false)
    .execute();
}

/** Records an attempt's outcome: delivered (or given up) for good, or due again at `retryAt`. */
export async function finishAttempt(
  db: Db,
  id: number,
  outcome: {
    readonly succeeded: boolean;
    readonly retryAt: Date | null;
    readonly request: string;
    readonly response: string;
  },
): Promise<void> {
  const done = outcome.retryAt === null;
  await db
    .updateTable("hook_task")
    .set({
      isSucceed: outcome.succeeded,
      isDelivered: done,
      deliveredAt: new Date(),
      claimedUntil: null,
      ...(done ? {} : { nextAttemptAt: outcome.retryAt as Date }),
      requestInfo: outcome.request,
      responseInfo: outcome.response,
    })
    .where("id", "=", id)
    .execute();
}

/** One page of a hook's deliveries, newest first. */
export async function listHookTasks(db: Db, hookId: number, page: PageRequest): Promise<Paged<HookTaskRow>> {
  return paged(
    db.selectFrom("hook_task").selectAll().where("hookId", "=", hookId).orderBy("id", "desc"),
    db
      .selectFrom("hook_task")
      .select((eb) => eb.fn.countAll().as("count"))
      .where("hookId", "=", hookId),
    page,
  );
}

/** A package version with its package, by the version's id (the `package` event names it so). */
export async function packageVersionById(
  db: Db,
  versionId: number,
): Promise<{ readonly packageId: number; readonly versionRowId: number } | undefined> {
  const row = await db
    .selectFrom("packageVersion")
    .select(["id", "packageId"])
    .where("id", "=", versionId)
    .executeTakeFirst();
  return row ? { packageId: row.packageId, versionRowId: row.id } : undefined;
}

/** Deletes deliveries done (delivered or given up) before `before`; returns how many went. */
export async function deleteFinishedTasks(db: Db, before: Date): Promise<number> {
  const done = await db
    .deleteFrom("hook_task")
    .where("isDelivered", "=", true)
    .where("createdAt", "<", before)
    .executeTakeFirst();
  return Number(done.numDeletedRows);
}
