import {
  CommentType,
  type Issue,
  NotFoundError,
  type Paged,
  type PageRequest,
  type Repository,
  type User,
} from "@kiln/domain";
import {
  comments,
  type IssueFilter,
  type IssueSort,
  issueSearch,
  issues,
  labels,
  milestones,
  users,
} from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { readableIssueKinds, readsIssues, writesIssues } from "../access/issue-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import type { RepoPermission } from "../access/repo-permission.js";
import { writerOf } from "../access/repo-writer.js";
import { removeAttachments } from "../attachments/attachment-service.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { assertAssignable, assertNotBlocked } from "../social/block-service.js";
import { resolveAssignees } from "./issue-assignees.js";
import { recountIssueCounters } from "./issue-counters.js";
import { type IssueListQuery, repoIssueFilter } from "./issue-filters.js";
import {
  choiceFilter,
  type IssueListForm,
  type IssueListResult,
  readIssueListForm,
} from "./issue-list-form.js";
import { mentionedNames } from "./issue-rules.js";
import { type IssueView, loadIssueViews } from "./issue-views.js";
import { insertNewIssue, type NewIssueRecord, recountNewIssue } from "./new-issue.js";

/** `POST /repos/{owner}/{repo}/issues`, in service terms. */
export interface CreateIssueInput {
  readonly title: string;
  readonly body?: string | undefined;
  readonly ref?: string | undefined;
  readonly assignee?: string | undefined;
  readonly assignees?: readonly string[] | undefined;
  readonly dueDate?: Date | null | undefined;
  readonly milestoneId?: number | undefined;
  readonly labelIds?: readonly number[] | undefined;
  readonly closed?: boolean | undefined;
}

/** `PATCH /repos/{owner}/{repo}/issues/{index}`, in service terms; absent fields stay as they are. */
export interface EditIssueInput {
  readonly title?: string | undefined;
  readonly body?: string | undefined;
  readonly ref?: string | undefined;
  readonly assignee?: string | undefined;
  readonly assignees?: readonly string[] | undefined;
  readonly milestoneId?: number | undefined;
  readonly state?: string | undefined;
  /** As written by the client: the day counts in the timestamp's own offset. */
  readonly dueDate?: string | null | undefined;
  readonly unsetDueDate?: boolean | undefined;
  readonly updatedAt?: Date | undefined;
}

/**
 * Issues of a repository (Forgejo's routers/api/v1/repo/issue.go and services/issue): creating,
 * reading, editing and listing them, with the timeline events, counters and notifications each
 * change causes committed in its transaction.
 */
export class IssueService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
  ) {}

  /** The issue or pull request with this number, if the caller may read its kind; NotFoundError otherwise. */
  async get(access: RepoAccess, index: number): Promise<Issue> {
    const issue = await issues.findIssueByIndex(this.ctx.db, access.repo.id, index);
    if (!issue || !readsIssues(access, issue.isPull)) {
      throw new NotFoundError(`issue does not exist [repo_id: ${access.repo.id}, index: ${index}]`);
    }
    return issue;
  }

  /** The API views of issues (poster, labels, milestone, assignees, repository) in one batch. */
  async views(list: readonly Issue[], known: readonly Repository[] = []): Promise<IssueView[]> {
    return loadIssueViews(this.ctx.db, list, known);
  }

  /**
   * Creates an issue. Labels, milestone, assignees and due date are kept only from writers (and
   * silently dropped for others, as Forgejo does); `closed` works for anyone.
   */
  async create(access: RepoAccess, input: CreateIssueInput): Promise<Issue> {
    const actor = writerOf(access);
    await assertNotBlocked(this.ctx.db, [access.repo.ownerId], actor.id);
    const writer = writesIssues(access, false);
    const assignees = writer
      ? await resolveAssignees(this.ctx.db, this.permissions, access.repo, input.assignee, input.assignees)
      : [];
    await assertAssignable(
      this.ctx.db,
      [access.repo.ownerId],
      actor.id,
      assignees.map((user) => user.id),
    );
    const milestone =
      writer && input.milestoneId
        ? await milestones.findMilestone(this.ctx.db, access.repo.id, input.milestoneId)
        : undefined;
    const labelList =
      writer && input.labelIds?.length
        ? await labels.usableLabelsByIds(this.ctx.db, access.repo.id, access.repo.ownerId, input.labelIds)
        : [];
    const body = input.body ?? "";
    const mentioned = await users.findUsersByNames(this.ctx.db, mentionedNames(body));
    const record: NewIssueRecord = {
      repoId: access.repo.id,
      poster: actor,
      title: input.title,
      body,
      ref: input.ref ?? "",
      milestone,
      labels: labelList,
      assignees,
      mentioned,
      deadline: writer ? (input.dueDate ?? null) : null,
      isPull: false,
    };
    const now = new Date();
    return this.ctx.db.transaction().execute(async (trx) => {
      const issue = await insertNewIssue(trx, record, now);
      const base = inRepo(access.repo, actor.id, now);
      await this.ctx.events.record(trx, { ...base, type: "issues", action: "opened", issueId: issue.id });
      // Forgejo's NewIssue notifies each assignment of a new issue (a new pull request's none).
      for (const user of assignees) {
        await this.ctx.events.record(trx, {
          ...base,
          type: "issue_assign",
          action: "assigned",
          issueId: issue.id,
          assigneeId: user.id,
        });
      }
      if (input.closed) {
        await issues.updateIssue(trx, issue.id, { isClosed: true, closedAt: now, updatedAt: now });
        await comments.insertComment(
          trx,
          { issueId: issue.id, type: CommentType.close, posterId: actor.id },
          now,
        );
        await this.ctx.events.record(trx, { ...base, type: "issues", action: "closed", issueId: issue.id });
      }
      await recountNewIssue(trx, record);
      return (await issues.findIssueById(trx, issue.id)) as Issue;
    });
  }

  /** Deletes an issue (repository admins only, by the route) and recounts what it was counted in. */
  async delete(access: RepoAccess, index: number): Promise<void> {
    const issue = await this.get(access, index);
    const actor = writerOf(access);
    await this.ctx.db.transaction().execute(async (trx) => {
      // First: it locks the repository, as uploads do, before the issue's rows are touched.
      await removeAttachments(trx, access.repo.id, { issueId: issue.id });
      // Recorded while the issue is still there for consumers to read.
      await this.ctx.events.record(trx, {
        ...inRepo(access.repo, actor.id),
        type: issue.isPull ? "pull_request" : "issues",
        action: "deleted",
        issueId: issue.id,
      });
      const labelIds = await issues.issueLabelIds(trx, issue.id);
      await issues.deleteIssue(trx, issue.id);
      await recountIssueCounters(trx, access.repo.id, [issue.milestoneId], labelIds);
    });
  }

  /**
   * A page of a repository's issues (the route has resolved the repository for the caller):
   * only the kinds the caller may read (issues, pull requests), narrowed to `type` when given;
   * NotFoundError when it may read none of what it asks for, as Forgejo answers.
   */
  async list(
    access: RepoAccess,
    query: IssueListQuery & { readonly type?: string | undefined },
    sort: IssueSort,
    page: PageRequest,
  ): Promise<Paged<Issue>> {
    const kinds = this.readableKinds(access.permission, access.viewer);
    let isPull: boolean | undefined;
    if (query.type === "issues" || query.type === "pulls") {
      isPull = query.type === "pulls";
      if (!(isPull ? kinds.pulls : kinds.issues)) throw new NotFoundError();
    } else if (!kinds.issues && !kinds.pulls) {
      throw new NotFoundError();
    } else if (!kinds.issues || !kinds.pulls) {
      isPull = kinds.pulls;
    }
    const filter: IssueFilter = { ...(await repoIssueFilter(this.ctx.db, access.repo, query)), isPull };
    return issueSearch.searchIssues(this.ctx.db, filter, sort, page);
  }

  /**
   * A page of a repository's issues or pull requests as its web list shows them (Forgejo's
   * routers/web/repo/issue.go `issues`): the form's filters, the open and closed counts of the
   * same filters, and all states when the form names none and only closed ones match.
   * NotFoundError when the caller may not read that kind.
   */
  async listPage(
    access: RepoAccess,
    isPull: boolean,
    form: IssueListForm,
    page: PageRequest,
  ): Promise<IssueListResult<Issue>> {
    const kinds = this.readableKinds(access.permission, access.viewer);
    if (!(isPull ? kinds.pulls : kinds.issues)) throw new NotFoundError();
    const choice = readIssueListForm(form);
    const filter = choiceFilter(access.repo, isPull, choice, access.viewer);
    const one = { page: 1, limit: 1 };
    const [open, closed] = await Promise.all([
      issueSearch.searchIssues(this.ctx.db, { ...filter, state: "open" }, "latest", one),
      issueSearch.searchIssues(this.ctx.db, { ...filter, state: "closed" }, "latest", one),
    ]);
    const state = choice.state ?? (open.total === 0 && closed.total > 0 ? "all" : "open");
    const list = await issueSearch.searchIssues(this.ctx.db, { ...filter, state }, choice.sort, page);
    return { ...list, open: open.total, closed: closed.total, state, choice };
  }

  /**
   * The caller's permission on the issues of a repository: the kinds (issues, pull requests) it
   * may read, for restricting a list the way Forgejo's ListIssues does.
   */
  readableKinds(permission: RepoPermission, viewer: User | null): { issues: boolean; pulls: boolean } {
    return readableIssueKinds(permission, viewer);
  }
}
