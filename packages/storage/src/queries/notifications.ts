import type { Paged, PageRequest } from "@kiln/domain";
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { Database, Db } from "../database.js";
import { paged } from "./paging.js";
import { type RepoViewer, repoVisibleTo } from "./repo-visibility.js";

/** Forgejo's notification statuses and sources (models/activities/notification.go). */
export const NotificationStatus = { unread: 1, read: 2, pinned: 3 } as const;
export const NotificationSource = { issue: 1, pull: 2, commit: 3, repository: 4 } as const;

/**
 * Tells everyone an issue concerns that it changed, in the transaction of the change (Forgejo's
 * CreateOrUpdateIssueNotifications): its poster, assignees, commenters (reviewers included),
 * the users mentioned in it, its subscribers, the reviewers asked for, and the watchers of the
 * repository (not for a work-in-progress pull request, as Forgejo) — but not the one who changed
 * it, nor anyone who blocks them, nor anyone who unsubscribed from the issue, nor anyone who
 * cannot read the repository now.
 * Each gets one notification per issue, brought back to unread (with the latest comment and
 * author) by every change. Lists decide visibility again, so a user who loses access later never
 * sees it either.
 */
export async function notifyIssueChange(
  db: Db,
  change: {
    readonly issueId: number;
    readonly repoId: number;
    readonly isPull: boolean;
    readonly actorId: number;
    readonly commentId: number | null;
    readonly at: Date;
  },
): Promise<number> {
  const { issueId, repoId, isPull, actorId, commentId, at } = change;
  const result = await sql`
    insert into notification (user_id, repo_id, status, source, issue_id, comment_id, updated_by, created_at, updated_at)
    select recipient.user_id, ${repoId}, 1, ${isPull ? 2 : 1}, ${issueId}, ${commentId}, ${actorId}, ${at}, ${at}
    from (
      select poster_id as user_id from issue where id = ${issueId} and poster_id is not null
      union select assignee_id from issue_assignees where issue_id = ${issueId}
      union select poster_id from comment where issue_id = ${issueId} and type in (0, 21, 22) and poster_id is not null
      union select user_id from issue_user where issue_id = ${issueId} and is_mentioned
      union select user_id from issue_watch where issue_id = ${issueId} and is_watching
      union select reviewer_id from review where issue_id = ${issueId} and type = 4 and reviewer_id is not null
      union select watch.user_id from watch where watch.repo_id = ${repoId} and watch.mode in (1, 3)
        and not exists (select 1 from issue wip where wip.id = ${issueId} and wip.is_pull
          and (upper(ltrim(wip.title)) like 'WIP:%' or upper(ltrim(wip.title)) like '[WIP]%'))
    ) as recipient
    join users reader on reader.id = recipient.user_id and reader.type = 'individual'
    join repository repo on repo.id = ${repoId}
    join users repo_owner on repo_owner.id = repo.owner_id
    where recipient.user_id <> ${actorId}
      and not exists (select 1 from blocked_user where blocked_user.user_id = recipient.user_id
        and blocked_user.block_id = ${actorId})
      and not exists (select 1 from issue_watch where issue_watch.issue_id = ${issueId}
        and issue_watch.user_id = recipient.user_id and not issue_watch.is_watching)
      and (reader.is_admin
        or repo.owner_id = reader.id
        or exists (select 1 from collaboration where collaboration.repo_id = repo.id
          and collaboration.user_id = reader.id)
        or exists (select 1 from team_user join team on team.id = team_user.team_id
          where team.org_id = repo.owner_id and team_user.user_id = reader.id
            and (team.includes_all_repositories or exists (select 1 from team_repo
              where team_repo.team_id = team.id and team_repo.repo_id = repo.id)))
        or (not repo.is_private and not reader.is_restricted
          and (repo_owner.visibility <> 'private' or exists (select 1 from org_user
            where org_user.org_id = repo_owner.id and org_user.user_id = reader.id))))
    on conflict (user_id, issue_id) where issue_id is not null do update
      set status = 1, comment_id = excluded.comment_id, updated_by = excluded.updated_by,
          updated_at = excluded.updated_at`.execute(db);
  return Number(result.numAffectedRows ?? 0);
}

/** Which of a user's notifications a list or a bulk change takes. */
export interface NotificationFilter {
  readonly userId: number;
  readonly repoId?: number;
  /** Statuses to take (all when absent or empty, as Forgejo's FindNotificationOptions). */
  readonly statuses?: readonly number[];
  /** Subjects to take (all when absent or empty). */
  readonly sources?: readonly number[];
  /** Updated at or after (to the second, as Forgejo's unix times). */
  readonly since?: Date;
  /** Updated at or before (to the second). */
  readonly before?: Date;
}

/** A notification with what its thread shows of its subject. */
export interface NotificationThreadRow {
  readonly id: number;
  readonly userId: number;
  readonly repoId: number;
  readonly status: number;
  readonly source: number;
  readonly issueId: number | null;
  readonly commitId: string | null;
  readonly updatedAt: Date;
  readonly issueIndex: number | null;
  readonly issueTitle: string | null;
  readonly issueClosed: boolean | null;
  readonly isPull: boolean | null;
  readonly merged: boolean | null;
  /** The issue's latest plain comment (Forgejo's GetLastComment). */
  readonly latestCommentId: number | null;
}

type NotificationExpressions = ExpressionBuilder<Database, "notification" | "repository">;

function matching(filter: NotificationFilter) {
  return (eb: NotificationExpressions): Expression<SqlBool> => {
    const conds: Expression<SqlBool>[] = [eb("notification.userId", "=", filter.userId)];
    if (filter.repoId !== undefined) conds.push(eb("notification.repoId", "=", filter.repoId));
    if (filter.statuses !== undefined && filter.statuses.length > 0)
      conds.push(eb("notification.status", "in", [...filter.statuses]));
    if (filter.sources !== undefined && filter.sources.length > 0)
      conds.push(eb("notification.source", "in", [...filter.sources]));
    if (filter.since)
      conds.push(sql<SqlBool>`date_trunc('second', notification.updated_at) >= ${filter.since}`);
    if (filter.before)
      conds.push(sql<SqlBool>`date_trunc('second', notification.updated_at) <= ${filter.before}`);
    return eb.and(conds);
  };
}

function threadQuery(db: Db, filter: NotificationFilter, viewer: RepoViewer) {
  return db
    .selectFrom("notification")
    .innerJoin("repository", "repository.id", "notification.repoId")
    .where(repoVisibleTo(viewer))
    .where(matching(filter));
}

function selectThreads(q: ReturnType<typeof threadQuery>) {
  return q
    .leftJoin("issue", "issue.id", "notification.issueId")
    .leftJoin("pullRequest", "pullRequest.issueId", "notification.issueId")
    .select([
      "notification.id",
      "notification.userId",
      "notification.repoId",
      "notification.status",
      "notification.source",
      "notification.issueId",
      "notification.commitId",
      "notification.updatedAt",
      "issue.index as issueIndex",
      "issue.title as issueTitle",
      "issue.isClosed as issueClosed",
      "issue.isPull as isPull",
      "pullRequest.hasMerged as merged",
      (eb) =>
        eb
          .selectFrom("comment")
          .select("comment.id")
          .whereRef("comment.issueId", "=", "notification.issueId")
          .where("comment.type", "=", 0)
          .orderBy("comment.createdAt", "desc")
          .orderBy("comment.id", "desc")
          .limit(1)
          .as("latestCommentId"),
    ]);
}

/** One page of a user's notification threads that the user may still see, newest change first. */
export async function listNotificationThreads(
  db: Db,
  filter: NotificationFilter,
  viewer: RepoViewer,
  page: PageRequest,
): Promise<Paged<NotificationThreadRow>> {
  const q = threadQuery(db, filter, viewer);
  return paged(
    selectThreads(q).orderBy("notification.updatedAt", "desc").orderBy("notification.id", "desc"),
    q.select((eb) => eb.fn.countAll<number>().as("count")),
    page,
  );
}

/** Every thread the filter takes (at most `max`), for a bulk status change. */
export async function allNotificationThreads(
  db: Db,
  filter: NotificationFilter,
  viewer: RepoViewer,
  max: number,
): Promise<NotificationThreadRow[]> {
  return selectThreads(threadQuery(db, filter, viewer))
    .orderBy("notification.updatedAt", "desc")
    .orderBy("notification.id", "desc")
    .limit(max)
    .execute();
}

/** One thread by id, whoever it belongs to, if its repository is visible to `viewer`. */
export async function findNotificationThread(
  db: Db,
  id: number,
  viewer: RepoViewer,
): Promise<NotificationThreadRow | undefined> {
  return selectThreads(
    db
      .selectFrom("notification")
      .innerJoin("repository", "repository.id", "notification.repoId")
      .where(repoVisibleTo(viewer))
      .where("notification.id", "=", id),
  ).executeTakeFirst();
}

/** How many of the user's notifications are unread, of repositories the user may still see. */
export async function countUnread(db: Db, userId: number, viewer: RepoViewer): Promise<number> {
  const row = await threadQuery(db, { userId, statuses: [NotificationStatus.unread] }, viewer)
    .select((eb) => eb.fn.countAll<number>().as("count"))
    .executeTakeFirstOrThrow();
  return Number(row.count);
}

/** Sets the status of these notifications of `userId` (their update time moves, as Forgejo's). */
export async function setNotificationStatus(
  db: Db,
  userId: number,
  ids: readonly number[],
  status: number,
  at: Date,
): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("notification")
    .set({ status, updatedAt: at })
    .where("userId", "=", userId)
    .where("id", "in", [...ids])
    .execute();
}

/**
 * Tells the recipient of a pending repository transfer (Forgejo's CreateRepoTransferNotification):
 * the user, or for an organization everyone who may create its repositories (its owners and
 * teams that may create repositories) except whoever blocks the actor, in the transaction that
 * records the transfer. The thread's subject is the repository.
 */
export async function notifyRepoTransfer(
  db: Db,
  transfer: {
    readonly repoId: number;
    readonly recipientId: number;
    readonly actorId: number;
    readonly at: Date;
  },
): Promise<void> {
  const { repoId, recipientId, actorId, at } = transfer;
  await sql`
    insert into notification (user_id, repo_id, status, source, updated_by, created_at, updated_at)
    select recipient.user_id, ${repoId}, 1, 4, ${actorId}, ${at}, ${at}
    from (
      select id as user_id from users where id = ${recipientId} and type = 'individual'
      union select team_user.user_id from team_user join team on team.id = team_user.team_id
        where team.org_id = ${recipientId} and (team.access_mode = 'owner' or team.can_create_org_repo)
    ) as recipient
    where recipient.user_id <> ${actorId}
      and not exists (select 1 from blocked_user where blocked_user.user_id = recipient.user_id
        and blocked_user.block_id = ${actorId})`.execute(db);
}
