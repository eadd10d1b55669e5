import {
  BadRequestError,
  CommentType,
  ConflictError,
  type Issue,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  type User,
} from "@kiln/domain";
import {
  comments,
  type Db,
  issues,
  type StopwatchEntry,
  type TimeFilter,
  type TrackedTimeEntry,
  trackedTimes,
  users,
} from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { type Actor, viewerOf } from "../access/actor.js";
import {
  managesTimes,
  mayDeleteTime,
  mayTrackTime,
  mayTrackTimeForOthers,
  readsIssues,
  writesIssues,
} from "../access/issue-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import type { IssueService } from "./issue-service.js";
import { type IssueView, loadIssueViews } from "./issue-views.js";

/** A tracked time with its issue and the user who spent it, as the API shows it. */
export interface TrackedTimeView {
  readonly entry: TrackedTimeEntry;
  readonly issue: IssueView | null;
  readonly user: User | null;
}

/** A window of creation times, for listing tracked time. */
export interface TimeWindow {
  readonly since?: Date | undefined;
  readonly before?: Date | undefined;
}

/**
 * Tracked time and stopwatches (Forgejo's issue_tracked_time.go and issue_stopwatch.go). Time is
 * tracked by the issue's contributors: writers, its poster and its assignees. Non-writers see only
 * their own times. Each change adds its timeline event in the same transaction.
 */
export class TimeService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly issueService: IssueService,
  ) {}

  private get enabled(): boolean {
    return this.ctx.settings.service.enableTimetracking;
  }

  /** 400 `time tracking disabled` when `[service] ENABLE_TIMETRACKING` is off. */
  private checkEnabled(): void {
    if (!this.enabled) throw new BadRequestError("time tracking disabled");
  }

  /** Whether the caller may track time on the issue (Forgejo's CanUseTimetracker, contributors only). */
  private async canTrack(access: RepoAccess, issue: Issue): Promise<boolean> {
    if (!access.viewer) return false;
    if (mayTrackTime(access, issue, false)) return true;
    const assignees = (await issues.assigneesOfIssues(this.ctx.db, [issue.id])).get(issue.id) ?? [];
    return mayTrackTime(access, issue, assignees.includes(access.viewer.id));
  }

  /**
   * Whose times a reader may list: anyone's for managers (issue writers, as Forgejo's
   * ListTrackedTimes and ListTrackedTimesByRepository decide; repository admins for the older
   * `…/times/{user}`) and site admins; otherwise only their own (403 for another's).
   */
  private async userFilter(
    access: RepoAccess,
    name: string | undefined,
    manager: boolean,
  ): Promise<number | undefined> {
    const viewer = writerOf(access);
    const named = name ? await users.findUserByName(this.ctx.db, name) : undefined;
    if (name && !named) throw new NotFoundError(`user does not exist [uid: 0, name: ${name}]`);
    if (manager) return named?.id;
    if (named && named.id !== viewer.id)
      throw new PermissionDeniedError("query by user not allowed; not enough rights");
    return viewer.id;
  }

  /** Loads the issues and users of tracked times, in one query each. */
  async views(entries: readonly TrackedTimeEntry[]): Promise<TrackedTimeView[]> {
    const issueIds = [...new Set(entries.map((entry) => entry.issueId))];
    const userIds = [
      ...new Set(entries.map((entry) => entry.userId).filter((id): id is number => id !== null)),
    ];
    const [issueList, people] = await Promise.all([
      issues.issuesByIds(this.ctx.db, issueIds),
      users.findUsersByIds(this.ctx.db, userIds),
    ]);
    const issueViews = new Map(
      (await loadIssueViews(this.ctx.db, issueList)).map((view) => [view.issue.id, view]),
    );
    const byId = new Map(people.map((user) => [user.id, user]));
    return entries.map((entry) => ({
      entry,
      issue: issueViews.get(entry.issueId) ?? null,
      user: entry.userId === null ? null : (byId.get(entry.userId) ?? null),
    }));
  }

  /** An issue's tracked times (404 `Timetracker is disabled` when off, as Forgejo answers). */
  async listForIssue(
    access: RepoAccess,
    index: number,
    query: TimeWindow & { readonly user?: string | undefined },
    page: PageRequest | undefined,
  ): Promise<Paged<TrackedTimeEntry>> {
    if (!this.enabled) throw new NotFoundError("Timetracker is disabled");
    const issue = await this.issueService.get(access, index);
    const userId = await this.userFilter(access, query.user, managesTimes(access, issue.isPull));
    return trackedTimes.listTimes(
      this.ctx.db,
      { issueId: issue.id, userId, since: query.since, before: query.before },
      page,
    );
  }

  /**
   * A repository's tracked times: 404 for a caller who may not read its issues (Forgejo's
   * mustEnableIssues). Writers of its issues see everyone's and may ask for one user's
   * (ListTrackedTimesByRepository's IsUserRepoWriter); through `…/times/{user}`
   * (`adminsOnly`, ListTrackedTimesByUser) only repository admins may ask for another's.
   */
  async listForRepo(
    access: RepoAccess,
    query: TimeWindow & { readonly user?: string | undefined },
    page: PageRequest | undefined,
    adminsOnly = false,
  ): Promise<Paged<TrackedTimeEntry>> {
    if (!readsIssues(access, false)) throw new NotFoundError();
    this.checkEnabled();
    const manager = managesTimes(access, false, adminsOnly ? "admins" : "writers");
    const userId = await this.userFilter(access, query.user, manager);
    return trackedTimes.listTimes(
      this.ctx.db,
      { repoId: access.repo.id, userId, since: query.since, before: query.before },
      page,
    );
  }

  /** The signed-in user's tracked times on every issue they may still read. */
  async listForUser(
    actor: Actor,
    window: TimeWindow,
    page: PageRequest | undefined,
  ): Promise<Paged<TrackedTimeEntry>> {
    if (!actor.user) throw new PermissionDeniedError("token is required");
    const filter: TimeFilter = { userId: actor.user.id, visibleTo: viewerOf(actor), ...window };
    return trackedTimes.listTimes(this.ctx.db, filter, page);
  }

  /**
   * Adds time to an issue (contributors only, 403 otherwise); a repository admin or site admin
   * may add it for another user (`user_name`), for anyone else that name is ignored.
   */
  async add(
    access: RepoAccess,
    index: number,
    input: {
      readonly seconds: number;
      readonly created?: Date | undefined;
      readonly userName?: string | undefined;
    },
  ): Promise<TrackedTimeEntry> {
    this.checkEnabled();
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (!(await this.canTrack(access, issue))) throw new PermissionDeniedError("");
    let user: User = actor;
    if (input.userName && mayTrackTimeForOthers(access)) {
      const named = await users.findUserByName(this.ctx.db, input.userName);
      if (!named) throw new NotFoundError(`user does not exist [uid: 0, name: ${input.userName}]`);
      user = named;
    }
    const at = new Date();
    return this.ctx.db.transaction().execute(async (trx) => {
      const entry = await trackedTimes.insertTime(trx, {
        issueId: issue.id,
        userId: user.id,
        seconds: input.seconds,
        createdAt: input.created ?? at,
      });
      await comments.insertComment(
        trx,
        {
          issueId: issue.id,
          type: CommentType.addTimeManual,
          posterId: user.id,
          content: `|${input.seconds}`,
          timeId: entry.id,
        },
        at,
      );
      return entry;
    });
  }

  /** Deletes the caller's own times on an issue (404 `tracked_time does not exist` when there are none). */
  async reset(access: RepoAccess, index: number): Promise<void> {
    this.checkEnabled();
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (!(await this.canTrack(access, issue))) throw new PermissionDeniedError("");
    const mine = await trackedTimes.listTimes(
      this.ctx.db,
      { issueId: issue.id, userId: actor.id },
      undefined,
    );
    if (mine.items.length === 0) throw new NotFoundError("tracked_time does not exist");
    const total = mine.items.reduce((sum, entry) => sum + entry.time, 0);
    await this.ctx.db.transaction().execute(async (trx) => {
      await trackedTimes.deleteTimes(
        trx,
        mine.items.map((entry) => entry.id),
      );
      await comments.insertComment(
        trx,
        { issueId: issue.id, type: CommentType.deleteTimeManual, posterId: actor.id, content: `|${total}` },
        new Date(),
      );
    });
  }

  /**
   * Deletes one tracked time of this repository's issue: its owner or a site admin (403
   * otherwise); 404 for an unknown id, a time of another issue, or one already deleted.
   */
  async delete(access: RepoAccess, index: number, id: number): Promise<void> {
    this.checkEnabled();
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (!(await this.canTrack(access, issue))) throw new PermissionDeniedError("");
    const entry = await trackedTimes.findTime(this.ctx.db, id);
    if (!entry || entry.issueId !== issue.id)
      throw new NotFoundError(`tracked_time does not exist [id: ${id}]`);
    if (entry.deleted) throw new NotFoundError(`tracked time [${id}] already deleted`);
    if (!mayDeleteTime(actor, entry)) throw new PermissionDeniedError("");
    await this.ctx.db.transaction().execute(async (trx) => {
      await trackedTimes.deleteTimes(trx, [id]);
      await comments.insertComment(
        trx,
        {
          issueId: issue.id,
          type: CommentType.deleteTimeManual,
          posterId: actor.id,
          content: `|${entry.time}`,
        },
        new Date(),
      );
    });
  }

  /**
   * Starts the caller's stopwatch on an issue (writers who may track time; 409 when one runs
   * there already). A user runs one stopwatch: one running on another issue is stopped first
   * and its time recorded.
   */
  async startStopwatch(access: RepoAccess, index: number): Promise<void> {
    const { issue, actor, running } = await this.stopwatchContext(access, index);
    if (running?.issueId === issue.id)
      throw new ConflictError("cannot start a stopwatch again if it already exists");
    const at = new Date();
    await this.ctx.db.transaction().execute(async (trx) => {
      if (running) await this.finish(trx, running, actor, at);
      await trackedTimes.startStopwatch(trx, issue.id, actor.id, at);
      await comments.insertComment(
        trx,
        { issueId: issue.id, type: CommentType.startTracking, posterId: actor.id },
        at,
      );
    });
  }

  /** Stops the caller's stopwatch on the issue and records the time (409 when none runs there). */
  async stopStopwatch(access: RepoAccess, index: number): Promise<void> {
    const { issue, actor, running } = await this.stopwatchContext(access, index);
    if (running?.issueId !== issue.id) throw new ConflictError("cannot stop a non existent stopwatch");
    await this.ctx.db.transaction().execute((trx) => this.finish(trx, running, actor, new Date()));
  }

  /** Discards the caller's stopwatch on the issue without recording time (409 when none runs there). */
  async cancelStopwatch(access: RepoAccess, index: number): Promise<void> {
    const { issue, actor, running } = await this.stopwatchContext(access, index);
    if (running?.issueId !== issue.id) throw new ConflictError("cannot cancel a non existent stopwatch");
    await this.ctx.db.transaction().execute(async (trx) => {
      await trackedTimes.deleteStopwatch(trx, running.id);
      await comments.insertComment(
        trx,
        { issueId: issue.id, type: CommentType.cancelTracking, posterId: actor.id },
        new Date(),
      );
    });
  }

  /** The signed-in user's stopwatches. */
  async listStopwatches(actor: Actor, page: PageRequest | undefined): Promise<Paged<StopwatchEntry>> {
    const viewer = viewerOf(actor);
    if (!viewer) throw new PermissionDeniedError("token is required");
    return trackedTimes.listUserStopwatches(this.ctx.db, viewer, page);
  }

  private async stopwatchContext(access: RepoAccess, index: number) {
    this.checkEnabled();
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (!writesIssues(access, issue.isPull) || !(await this.canTrack(access, issue)))
      throw new PermissionDeniedError("");
    return { issue, actor, running: await trackedTimes.findUserStopwatch(this.ctx.db, actor.id) };
  }

  /** Ends a stopwatch: its time becomes a tracked time, with a `stop_tracking` event. */
  private async finish(trx: Db, running: StopwatchEntry, actor: User, at: Date): Promise<void> {
    const seconds = Math.max(0, Math.floor((at.getTime() - running.createdAt.getTime()) / 1000));
    await trackedTimes.deleteStopwatch(trx, running.id);
    const entry = await trackedTimes.insertTime(trx, {
      issueId: running.issueId,
      userId: actor.id,
      seconds,
      createdAt: at,
    });
    await comments.insertComment(
      trx,
      {
        issueId: running.issueId,
        type: CommentType.stopTracking,
        posterId: actor.id,
        content: `|${seconds}`,
        timeId: entry.id,
      },
      at,
    );
  }
}
