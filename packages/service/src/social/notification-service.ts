import {
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  type Repository,
  type User,
} from "@kiln/domain";
import { notifications, repoAccess } from "@kiln/storage";

const { NotificationSource, NotificationStatus } = notifications;

import { isSelfOrAdmin, requireOwnThread } from "../access/account-rules.js";
import { type Actor, signedInViewer } from "../access/actor.js";
import type { ServiceContext } from "../context.js";

export type NotificationThreadRow = notifications.NotificationThreadRow;

/** The most threads one bulk status change takes (Forgejo takes all; Kiln bounds the answer). */
export const MAX_BULK_THREADS = 1000;

/** Forgejo's status names (`unread`, `read`, `pinned`, any case); anything else is no status. */
export function notificationStatusOf(name: string): number | undefined {
  const key = name.trim().toLowerCase();
  return key === "unread" || key === "read" || key === "pinned" ? NotificationStatus[key] : undefined;
}

/**
 * Forgejo's subject types (`issue`, `pull`, `commit`, `repository`); others are ignored, and when
 * none is known there is no filter (Forgejo's subjectToSource).
 */
export function notificationSourceOf(name: string): number | undefined {
  const key = name.toLowerCase();
  return key === "issue" || key === "pull" || key === "commit" || key === "repository"
    ? NotificationSource[key]
    : undefined;
}

/** Which threads a list takes, as Forgejo's getFindNotificationOptions. */
export interface ThreadQuery {
  readonly repoId?: number;
  /** Every status (`all=true`), else `statuses` or the default ones. */
  readonly all?: boolean;
  readonly statuses?: readonly string[];
  readonly subjectTypes?: readonly string[];
  readonly since?: Date;
  readonly before?: Date;
}

/** Which threads a bulk change takes, as Forgejo's ReadNotifications. */
export interface MarkQuery {
  readonly repoId?: number;
  readonly all?: boolean;
  readonly statuses?: readonly string[];
  /** Only threads updated at or before (Forgejo's `last_read_at`). */
  readonly lastReadAt?: Date;
  readonly toStatus?: string;
}

/**
 * A user's notification threads (Forgejo's routers/api/v1/notify): lists, counts and status
 * changes. Threads of repositories the user may no longer see are neither listed nor counted
 * (the access module's visibility fragment), and are unknown (404) by id.
 */
export class NotificationService {
  constructor(private readonly ctx: ServiceContext) {}

  /** One page of the caller's threads. */
  list(actor: Actor, query: ThreadQuery, page: PageRequest): Promise<Paged<NotificationThreadRow>> {
    const viewer = signedInViewer(actor);
    const filter: notifications.NotificationFilter = {
      userId: viewer.id,
      ...(query.repoId !== undefined ? { repoId: query.repoId } : {}),
      ...(query.all ? {} : { statuses: statuses(query.statuses, ["unread", "pinned"]) }),
      ...(query.subjectTypes && query.subjectTypes.length > 0
        ? { sources: known(query.subjectTypes.map(notificationSourceOf)) }
        : {}),
      ...(query.since ? { since: query.since } : {}),
      ...(query.before ? { before: query.before } : {}),
    };
    return notifications.listNotificationThreads(this.ctx.db, filter, viewer, page);
  }

  /** How many unread threads the caller has (`GET /notifications/new`). */
  unreadCount(actor: Actor): Promise<number> {
    const viewer = signedInViewer(actor);
    return notifications.countUnread(this.ctx.db, viewer.id, viewer);
  }

  /** Sets the status of the threads `query` takes; answers them as they are now. */
  async mark(actor: Actor, query: MarkQuery): Promise<NotificationThreadRow[]> {
    const viewer = signedInViewer(actor);
    const filter: notifications.NotificationFilter = {
      userId: viewer.id,
      ...(query.repoId !== undefined ? { repoId: query.repoId } : {}),
      ...(query.all ? {} : { statuses: statuses(query.statuses, ["unread"]) }),
      ...(query.lastReadAt ? { before: query.lastReadAt } : {}),
    };
    const target = targetStatus(query.toStatus);
    return this.ctx.db.transaction().execute(async (trx) => {
      const rows = await notifications.allNotificationThreads(trx, filter, viewer, MAX_BULK_THREADS);
      const at = new Date();
      await notifications.setNotificationStatus(
        trx,
        viewer.id,
        rows.map((r) => r.id),
        target,
        at,
      );
      return rows.map((r) => ({ ...r, status: target, updatedAt: at }));
    });
  }

  /**
   * One thread by id: 404 when there is none or its repository is hidden from the caller, 403
   * when it is another user's (site admins may read it), as Forgejo's getThread.
   */
  async thread(actor: Actor, id: number): Promise<NotificationThreadRow> {
    const viewer = signedInViewer(actor);
    const row = await notifications.findNotificationThread(this.ctx.db, id, viewer);
    if (!row) throw new NotFoundError(`notification does not exist [id: ${id}]`);
    if (!isSelfOrAdmin(viewer, { id: row.userId })) {
      throw new PermissionDeniedError(
        `only user itself and admin are allowed to read/change this thread ${id}`,
      );
    }
    return row;
  }

  /** Sets one of the caller's threads to `toStatus` (default read). */
  async markThread(actor: Actor, id: number, toStatus: string | undefined): Promise<NotificationThreadRow> {
    const viewer = signedInViewer(actor);
    const row = await this.thread(actor, id);
    requireOwnThread(viewer, row.userId);
    const status = targetStatus(toStatus);
    const at = new Date();
    await notifications.setNotificationStatus(this.ctx.db, viewer.id, [id], status, at);
    return { ...row, status, updatedAt: at };
  }

  /** The repositories of these threads with their owners, from one query. */
  async repositories(
    actor: Actor,
    rows: readonly NotificationThreadRow[],
  ): Promise<Map<number, { repo: Repository; owner: User }>> {
    const found = await repoAccess.findRepoAccess(
      this.ctx.db,
      { ids: [...new Set(rows.map((r) => r.repoId))] },
      actor.user?.id ?? null,
    );
    return new Map(found.map((row) => [row.repo.id, { repo: row.repo, owner: row.owner }]));
  }
}

function known(values: readonly (number | undefined)[]): number[] {
  return values.filter((value): value is number => value !== undefined);
}

/**
 * Forgejo's statusStringsToNotificationStatuses: the given names, or the defaults when none are
 * given; when none of those given is known, no status filter at all (as Forgejo).
 */
function statuses(given: readonly string[] | undefined, defaults: readonly string[]): number[] {
  return known((given && given.length > 0 ? given : defaults).map(notificationStatusOf));
}

/** Forgejo's target status: a known name, else read (so `unpinned` reads the thread, as Forgejo). */
function targetStatus(name: string | undefined): number {
  return notificationStatusOf(name ?? "") ?? NotificationStatus.read;
}
