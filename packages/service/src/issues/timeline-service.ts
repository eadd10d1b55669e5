import {
  type Comment,
  CommentType,
  isKilnError,
  type Label,
  type Milestone,
  type Paged,
  type PageRequest,
  type User,
} from "@kiln/domain";
import { comments, issues, labels, milestones, trackedTimes, users } from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import { viewerOf } from "../access/actor.js";
import { readsIssues } from "../access/issue-rules.js";
import type { ServiceContext } from "../context.js";
import type { IssueService } from "./issue-service.js";
import type { IssueView } from "./issue-views.js";
import { loadIssueViews } from "./issue-views.js";
import type { TimeService, TrackedTimeView } from "./time-service.js";

/** A comment or event of an issue's timeline with everything it refers to, loaded. */
export interface TimelineEntry {
  readonly comment: Comment;
  readonly issueIndex: number;
  readonly isPull: boolean;
  readonly poster: User | null;
  readonly assignee: User | null;
  readonly label: Label | null;
  readonly milestone: Milestone | null;
  readonly oldMilestone: Milestone | null;
  readonly trackedTime: TrackedTimeView | null;
  readonly dependentIssue: IssueView | null;
}

/** The filters of a timeline request. */
export interface TimelineWindow {
  readonly since?: Date | undefined;
  readonly before?: Date | undefined;
}

/**
 * An issue's timeline (Forgejo's ListIssueCommentsAndTimeline): comments and the events its
 * changes wrote, oldest first. A dependency event whose other issue the caller may not read is
 * left out, so the timeline never tells that such an issue exists.
 */
export class TimelineService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly access: AccessService,
    private readonly issueService: IssueService,
    private readonly times: TimeService,
  ) {}

  async list(
    repoAccess: RepoAccess,
    index: number,
    window: TimelineWindow,
    page: PageRequest | undefined,
  ): Promise<Paged<TimelineEntry>> {
    const issue = await this.issueService.get(repoAccess, index);
    // Dependency events on issues the caller may not read are left out in SQL, so that the
    // total and the pages agree with what is shown.
    const list = await comments.listTimeline(this.ctx.db, issue.id, window, viewerOf(repoAccess.actor), page);
    const rows = list.items;
    const ids = (pick: (c: Comment) => number | null) => [
      ...new Set(rows.map(pick).filter((id): id is number => id !== null)),
    ];
    const [people, labelList, milestoneMap, timeRows, dependents] = await Promise.all([
      users.findUsersByIds(this.ctx.db, [...ids((c) => c.posterId), ...ids((c) => c.assigneeId)]),
      labels.labelsByIds(
        this.ctx.db,
        ids((c) => c.labelId),
      ),
      milestones.milestonesByIds(this.ctx.db, [
        ...ids((c) => c.milestoneId),
        ...ids((c) => c.oldMilestoneId),
      ]),
      trackedTimes.timesByIds(
        this.ctx.db,
        ids((c) => c.timeId),
      ),
      issues.issuesByIds(
        this.ctx.db,
        ids((c) => c.dependentIssueId),
      ),
    ]);
    const readable = await this.readableIssueViews(repoAccess, dependents);
    const timeViews = new Map((await this.times.views(timeRows)).map((view) => [view.entry.id, view]));
    const byUser = new Map(people.map((user) => [user.id, user]));
    const byLabel = new Map(labelList.map((label) => [label.id, label]));
    const lookup = <T>(map: Map<number, T>, id: number | null) =>
      id === null ? null : (map.get(id) ?? null);
    const isDependency = (c: Comment) =>
      c.type === CommentType.addDependency || c.type === CommentType.removeDependency;
    // A second check of what SQL let through (an issue whose access changed meanwhile is left out).
    const items = rows
      .filter((c) => !isDependency(c) || (c.dependentIssueId !== null && readable.has(c.dependentIssueId)))
      .map((comment) => ({
        comment,
        issueIndex: issue.index,
        isPull: issue.isPull,
        poster: lookup(byUser, comment.posterId),
        assignee: lookup(byUser, comment.assigneeId),
        label: lookup(byLabel, comment.labelId),
        milestone: lookup(milestoneMap, comment.milestoneId),
        oldMilestone: lookup(milestoneMap, comment.oldMilestoneId),
        trackedTime: lookup(timeViews, comment.timeId),
        dependentIssue: lookup(readable, comment.dependentIssueId),
      }));
    return { items, total: list.total };
  }

  /** The views of those issues the caller may read. */
  private async readableIssueViews(
    repoAccess: RepoAccess,
    list: Awaited<ReturnType<typeof issues.issuesByIds>>,
  ) {
    const accessTo = new Map<number, RepoAccess | null>([[repoAccess.repo.id, repoAccess]]);
    for (const repoId of new Set(list.map((issue) => issue.repoId))) {
      if (accessTo.has(repoId)) continue;
      const access = await this.access.repoById(repoAccess.actor, repoId).catch((err: unknown) => {
        if (isKilnError(err) && (err.kind === "not_found" || err.kind === "permission_denied")) return null;
        throw err;
      });
      accessTo.set(repoId, access);
    }
    const visible = list.filter((issue) => {
      const access = accessTo.get(issue.repoId);
      return access ? readsIssues(access, issue.isPull) : false;
    });
    return new Map((await loadIssueViews(this.ctx.db, visible)).map((view) => [view.issue.id, view]));
  }
}
