import {
  BadRequestError,
  CommentType,
  InvalidArgumentError,
  type Issue,
  PermissionDeniedError,
  PreconditionFailedError,
} from "@kiln/domain";
import { comments, type IssueChanges, issueRelations, issues, milestones, users } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { mayEditIssue, writesIssues } from "../access/issue-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import type { ForgeEvent } from "../events/event.js";
import { inRepo } from "../events/event-base.js";
import { assertAssignable } from "../social/block-service.js";
import { resolveAssignees } from "./issue-assignees.js";
import { recountIssueCounters } from "./issue-counters.js";
import { endOfDay, limitTitle, mentionedNames } from "./issue-rules.js";
import type { EditIssueInput, IssueService } from "./issue-service.js";
import { updateTime } from "./issue-update-time.js";

/** Editing issues (Forgejo's EditIssue and services/issue), apart from the rest of IssueService to keep both small. */
export class IssueEditService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
    private readonly issueService: IssueService,
  ) {}

  /**
   * Edits an issue as Forgejo's EditIssue does: the poster or a writer may change title, body,
   * ref and state; only writers change the due date, assignees and milestone (ignored for
   * others); only repository admins may set `updated_at`. Every change adds its timeline event,
   * recounts what it moves, and notifies the issue's participants, in one transaction.
   */
  async edit(access: RepoAccess, index: number, input: EditIssueInput): Promise<Issue> {
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    const writer = writesIssues(access, issue.isPull);
    if (!mayEditIssue(access, issue)) throw new PermissionDeniedError("");
    const at = updateTime(access, issue, input.updatedAt);
    const changes: { -readonly [K in keyof IssueChanges]: IssueChanges[K] } = { updatedAt: at };
    const events: Parameters<typeof comments.insertComment>[1][] = [];
    const event = (type: number, fields: Record<string, unknown> = {}) =>
      events.push({ issueId: issue.id, type, posterId: actor.id, ...fields });

    if (input.title) {
      const title = limitTitle(input.title);
      if (title !== issue.title) {
        changes.title = title;
        event(CommentType.changeTitle, { oldTitle: issue.title, newTitle: title });
      }
    }
    if (input.body !== undefined) changes.content = input.body;
    if (input.ref !== undefined) {
      changes.ref = input.ref;
      event(CommentType.changeIssueRef, { oldRef: issue.ref, newRef: input.ref });
    }
    if (writer && (input.dueDate !== undefined || input.unsetDueDate !== undefined)) {
      let deadline: Date | null;
      if (input.unsetDueDate) deadline = null;
      else if (input.dueDate === undefined || input.dueDate === null)
        throw new BadRequestError("The due_date cannot be empty");
      else deadline = endOfDay(input.dueDate);
      if ((deadline?.getTime() ?? null) !== (issue.deadline?.getTime() ?? null)) {
        changes.deadline = deadline;
        event(
          deadline === null
            ? CommentType.removedDeadline
            : issue.deadline
              ? CommentType.modifiedDeadline
              : CommentType.addedDeadline,
        );
      }
    }
    const assignees =
      writer && (input.assignees !== undefined || input.assignee !== undefined)
        ? await resolveAssignees(this.ctx.db, this.permissions, access.repo, input.assignee, input.assignees)
        : undefined;
    let milestoneId = issue.milestoneId;
    if (writer && input.milestoneId !== undefined && input.milestoneId !== (issue.milestoneId ?? 0)) {
      if (
        input.milestoneId !== 0 &&
        !(await milestones.findMilestone(this.ctx.db, access.repo.id, input.milestoneId))
      ) {
        throw new InvalidArgumentError(
          `milestone does not exist [id: ${input.milestoneId}, repo_id: ${access.repo.id}]`,
        );
      }
      milestoneId = input.milestoneId === 0 ? null : input.milestoneId;
      changes.milestoneId = milestoneId;
      event(CommentType.milestone, { oldMilestoneId: issue.milestoneId, milestoneId });
    }
    if (input.state !== undefined) {
      const closing = input.state === "closed";
      if (closing !== issue.isClosed) {
        if (closing && (await issueRelations.hasOpenBlockers(this.ctx.db, issue.id))) {
          throw new PreconditionFailedError("cannot close this issue because it still has open dependencies");
        }
        changes.isClosed = closing;
        changes.closedAt = closing ? at : null;
        event(closing ? CommentType.close : CommentType.reopen);
      }
    }
    const mentioned = input.body ? await users.findUsersByNames(this.ctx.db, mentionedNames(input.body)) : [];
    // A request that changes nothing leaves the issue (and its update time) as it is.
    if (Object.keys(changes).length === 1 && events.length === 0 && assignees === undefined) return issue;

    return this.ctx.db.transaction().execute(async (trx) => {
      await issues.updateIssue(trx, issue.id, changes);
      const base = inRepo(access.repo, actor.id, at);
      const pull = issue.isPull;
      const recorded: ForgeEvent[] = [];
      const edited = (from: { title?: { from: string }; body?: { from: string }; ref?: { from: string } }) =>
        recorded.push({
          ...base,
          type: pull ? "pull_request" : "issues",
          action: "edited",
          issueId: issue.id,
          changes: from,
        });
      if (changes.title !== undefined) edited({ title: { from: issue.title } });
      if (changes.content !== undefined && changes.content !== issue.content)
        edited({ body: { from: issue.content } });
      if (changes.ref !== undefined && changes.ref !== issue.ref) edited({ ref: { from: issue.ref } });
      if (assignees) {
        const current = (await issues.assigneesOfIssues(trx, [issue.id])).get(issue.id) ?? [];
        const wanted = assignees.map((user) => user.id);
        const removed = current.filter((id) => !wanted.includes(id));
        const added = wanted.filter((id) => !current.includes(id));
        await assertAssignable(trx, [access.repo.ownerId, issue.posterId ?? 0], actor.id, added);
        await issues.removeAssignees(trx, issue.id, removed);
        await issues.addAssignees(trx, issue.id, added);
        for (const id of removed) event(CommentType.assignees, { assigneeId: id, removedAssignee: true });
        for (const id of added) event(CommentType.assignees, { assigneeId: id });
        for (const [ids, action] of [
          [removed, "unassigned"],
          [added, "assigned"],
        ] as const) {
          for (const assigneeId of ids) {
            recorded.push({
              ...base,
              type: pull ? "pull_request_assign" : "issue_assign",
              action,
              issueId: issue.id,
              assigneeId,
            });
          }
        }
      }
      if (changes.milestoneId !== undefined) {
        const set = changes.milestoneId !== null;
        recorded.push({
          ...base,
          type: pull ? "pull_request_milestone" : "issue_milestone",
          action: set ? "milestoned" : "demilestoned",
          issueId: issue.id,
          milestoneId: (set ? changes.milestoneId : issue.milestoneId) ?? 0,
        });
      }
      if (changes.isClosed !== undefined) {
        recorded.push({
          ...base,
          type: pull ? "pull_request" : "issues",
          action: changes.isClosed ? "closed" : "reopened",
          issueId: issue.id,
        });
      }
      await issues.markMentioned(
        trx,
        issue.id,
        mentioned.map((user) => user.id),
      );
      for (const values of events) await comments.insertComment(trx, values, at);
      if (changes.isClosed !== undefined) {
        await recountIssueCounters(
          trx,
          access.repo.id,
          [issue.milestoneId, milestoneId],
          await issues.issueLabelIds(trx, issue.id),
        );
        if (changes.isClosed)
          await trx
            .deleteFrom("stopwatch")
            .where("issueId", "=", issue.id)
            .where("userId", "=", actor.id)
            .execute();
      } else if (changes.milestoneId !== undefined) {
        await milestones.recountMilestones(trx, [issue.milestoneId, milestoneId]);
      }
      // An edit no hook reports (a due date, a body sent again unchanged) still notifies.
      if (recorded.length === 0) {
        recorded.push({ ...base, type: "issue_touched", issueId: issue.id, isPull: pull, commentId: null });
      }
      for (const recordedEvent of recorded) await this.ctx.events.record(trx, recordedEvent);
      return (await issues.findIssueById(trx, issue.id)) as Issue;
    });
  }

  /**
   * `POST …/issues/{index}/deadline`: writers only (403 `Not repo writer`); the due date becomes
   * 23:59:59 of its day in the offset it was written in, and null (or year 1) removes it.
   * Answers the due date now in force.
   */
  async setDeadline(
    access: RepoAccess,
    index: number,
    dueDate: string | null | undefined,
  ): Promise<Date | null> {
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (!writesIssues(access, issue.isPull)) throw new PermissionDeniedError("Not repo writer");
    const deadline = dueDate ? endOfDay(dueDate) : null;
    if ((deadline?.getTime() ?? null) === (issue.deadline?.getTime() ?? null)) return deadline;
    const at = new Date();
    const type =
      deadline === null
        ? CommentType.removedDeadline
        : issue.deadline
          ? CommentType.modifiedDeadline
          : CommentType.addedDeadline;
    await this.ctx.db.transaction().execute(async (trx) => {
      await issues.updateIssue(trx, issue.id, { deadline, updatedAt: at });
      await comments.insertComment(trx, { issueId: issue.id, type, posterId: actor.id }, at);
      await this.ctx.events.record(trx, {
        ...inRepo(access.repo, actor.id, at),
        type: "issue_touched",
        issueId: issue.id,
        isPull: issue.isPull,
        commentId: null,
      });
    });
    return deadline;
  }
}
