import type { HookTask } from "@kiln/domain";
import type { ColumnType, Generated, Selectable } from "kysely";

export type { HookRequestInfo, HookResponseInfo } from "@kiln/domain";

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;

/**
 * Forgejo's HookEvent as stored: which events a hook fires for. `events` holds Forgejo's
 * HookEvents booleans by their JSON names (`create`, `issues`, `pull_request_review`, …).
 */
export interface StoredHookEvent {
  readonly push_only: boolean;
  readonly send_everything: boolean;
  readonly choose_events: boolean;
  readonly events: Readonly<Record<string, boolean>>;
}

/** A webhook of a repository, an owner, or the site (system or default hook; migration 0017). */
export interface WebhookTable {
  id: Generated<number>;
  repoId: number | null;
  ownerId: number | null;
  isSystemWebhook: Generated<boolean>;
  type: string;
  url: string;
  httpMethod: Generated<string>;
  contentType: Generated<string>;
  /** Sealed with the instance's secret key (empty: no secret). */
  secret: Generated<string>;
  /** {@link StoredHookEvent} as JSON text (its snake_case keys are Forgejo's; see hookSelection). */
  events: string;
  branchFilter: Generated<string>;
  /** Sealed with the instance's secret key (empty: none). */
  authorizationHeader: Generated<string>;
  meta: Generated<string>;
  isActive: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** One delivery of one event to one hook: the durable queue (migration 0017). */
export interface HookTaskTable {
  id: Generated<number>;
  hookId: number;
  uuid: string;
  eventType: string;
  payload: string;
  isDelivered: Generated<boolean>;
  isSucceed: Generated<boolean>;
  attempts: Generated<number>;
  nextAttemptAt: ColumnType<Date, Date | undefined, Date>;
  claimedUntil: ColumnType<Date | null, Date | null | undefined, Date | null>;
  deliveredAt: ColumnType<Date | null, Date | null | undefined, Date | null>;
  /** {@link HookRequestInfo} as JSON text. */
  requestInfo: string | null;
  /** {@link HookResponseInfo} as JSON text. */
  responseInfo: string | null;
  createdAt: CreatedAt;
}

export type WebhookRow = Selectable<WebhookTable>;
/** A delivery as read; the domain's {@link HookTask}. */
export type HookTaskRow = HookTask;

/** The webhook tables of the schema (migration 0017). */
export interface WebhookTables {
  webhook: WebhookTable;
  hook_task: HookTaskTable;
}

/** A hook's stored event selection, read from its JSON text (an unreadable one selects nothing). */
export function hookSelection(events: string): StoredHookEvent {
  try {
    const parsed = JSON.parse(events) as Partial<StoredHookEvent>;
    return {
      push_only: parsed.push_only === true,
      send_everything: parsed.send_everything === true,
      choose_events: parsed.choose_events === true,
      events: parsed.events && typeof parsed.events === "object" ? parsed.events : {},
    };
  } catch {
    return { push_only: false, send_everything: false, choose_events: false, events: {} };
  }
}
