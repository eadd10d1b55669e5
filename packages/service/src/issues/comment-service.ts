import {
  type Comment,
  CommentType,
  type Issue,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
} from "@kiln/domain";
import { comments, issues, users, type Window } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { mayEditComment, mayTalkOn, readsIssues } from "../access/issue-rules.js";
import { writerOf } from "../access/repo-writer.js";
import { removeAttachments } from "../attachments/attachment-service.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { assertNotBlocked } from "../social/block-service.js";
import { mentionedNames } from "./issue-rules.js";
import type { IssueService } from "./issue-service.js";
import { updateTime } from "./issue-update-time.js";

/** A comment with the issue it belongs to (its number and kind make its URLs). */
export interface CommentView {
  readonly comment: Comment;
  readonly issueIndex: number;
  readonly isPull: boolean;
}

/**
 * Comments of issues and pull requests (Forgejo's routers/api/v1/repo/issue_comment.go): plain
 * comments only; the timeline's events are not comments here, and reading, editing or deleting
 * one answers nothing (Forgejo's 204).
 */
export class CommentService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly issueService: IssueService,
  ) {}

  /** A page of an issue's comments, oldest first, updated within the window. */
  async listForIssue(
    access: RepoAccess,
    index: number,
    window: Window,
    page: PageRequest,
  ): Promise<Paged<CommentView>> {
    const issue = await this.issueService.get(access, index);
    const list = await comments.listIssueComments(this.ctx.db, issue.id, window, page);
    return {
      total: list.total,
      items: list.items.map((comment) => ({ comment, issueIndex: issue.index, isPull: issue.isPull })),
    };
  }

  /** A repository's comments on the kinds the caller may read; a page, or all when none is asked. */
  async listForRepo(
    access: RepoAccess,
    window: Window,
    page: PageRequest | undefined,
  ): Promise<Paged<CommentView>> {
    const kinds = this.issueService.readableKinds(access.permission, access.viewer);
    if (!kinds.issues && !kinds.pulls) throw new NotFoundError();
    const isPull = kinds.issues && kinds.pulls ? undefined : kinds.pulls;
    const list = await comments.listRepoComments(this.ctx.db, access.repo.id, window, isPull, page);
    return {
      total: list.total,
      items: list.items.map(({ issueIndex, isPull: pull, ...comment }) => ({
        comment,
        issueIndex,
        isPull: pull,
      })),
    };
  }

  /**
   * Comments on an issue. A locked issue takes comments only from writers and site admins
   * (403 `You cannot comment on a locked issue.`). The comment, the issue's counters and update
   * time, the mentions and the participants' notifications commit together.
   */
  async create(access: RepoAccess, index: number, body: string, updatedAt?: Date): Promise<CommentView> {
    const actor = writerOf(access);
    const issue = await this.issueService.get(access, index);
    if (!mayTalkOn(access, issue)) {
      throw new PermissionDeniedError("You cannot comment on a locked issue.");
    }
    await assertNotBlocked(this.ctx.db, [access.repo.ownerId, issue.posterId ?? 0], actor.id);
    const at = updateTime(access, issue, updatedAt);
    const mentioned = await users.findUsersByNames(this.ctx.db, mentionedNames(body));
    const comment = await this.ctx.db.transaction().execute(async (trx) => {
      const created = await comments.insertComment(
        trx,
        { issueId: issue.id, type: CommentType.comment, posterId: actor.id, content: body },
        at,
      );
      await issues.recountComments(trx, issue.id);
      await issues.updateIssue(trx, issue.id, { updatedAt: at });
      await issues.markMentioned(
        trx,
        issue.id,
        mentioned.map((user) => user.id),
      );
      await this.ctx.events.record(trx, {
        ...inRepo(access.repo, actor.id, at),
        type: issue.isPull ? "pull_request_comment" : "issue_comment",
        action: "created",
        issueId: issue.id,
        commentId: created.id,
      });
      return created;
    });
    return { comment, issueIndex: issue.index, isPull: issue.isPull };
  }

  /**
   * A comment of this repository the caller may read; undefined for a timeline event (which the
   * API answers with 204). NotFoundError when it is not there for the caller.
   */
  async get(access: RepoAccess, id: number): Promise<CommentView | undefined> {
    const found = await comments.findComment(this.ctx.db, id);
    if (!found || found.repoId !== access.repo.id || !readsIssues(access, found.isPull)) {
      throw new NotFoundError(`comment does not exist [id: ${id}, issue_id: 0]`);
    }
    if (found.type !== CommentType.comment) return undefined;
    const issue = await issues.findIssueById(this.ctx.db, found.issueId);
    const { repoId: _repo, isPull, ...comment } = found;
    return { comment, issueIndex: issue?.index ?? 0, isPull };
  }

  /** Edits a comment: its poster or a writer (403 otherwise); undefined for a timeline event. */
  async edit(
    access: RepoAccess,
    id: number,
    body: string,
    updatedAt?: Date,
  ): Promise<CommentView | undefined> {
    const view = await this.mine(access, id);
    if (!view) return undefined;
    const issue = (await issues.findIssueById(this.ctx.db, view.comment.issueId)) as Issue;
    const at = updateTime(access, issue, updatedAt);
    const mentioned = await users.findUsersByNames(this.ctx.db, mentionedNames(body));
    const actor = writerOf(access);
    await this.ctx.db.transaction().execute(async (trx) => {
      await comments.updateCommentContent(trx, id, body, at);
      if (body !== view.comment.content) {
        await this.ctx.events.record(trx, {
          ...inRepo(access.repo, actor.id, at),
          type: view.isPull ? "pull_request_comment" : "issue_comment",
          action: "edited",
          issueId: issue.id,
          commentId: id,
          changes: { body: { from: view.comment.content } },
        });
      }
      await issues.markMentioned(
        trx,
        issue.id,
        mentioned.map((user) => user.id),
      );
    });
    return { ...view, comment: { ...view.comment, content: body, updatedAt: at } };
  }

  /** Deletes a comment: its poster or a writer (403 otherwise); a timeline event is left alone. */
  async delete(access: RepoAccess, id: number): Promise<void> {
    const view = await this.mine(access, id);
    if (!view) return;
    const actor = writerOf(access);
    await this.ctx.db.transaction().execute(async (trx) => {
      // First: it locks the repository, as uploads do, before the comment's rows are touched.
      await removeAttachments(trx, access.repo.id, { commentId: id });
      // Recorded while the comment is still there for consumers to read.
      await this.ctx.events.record(trx, {
        ...inRepo(access.repo, actor.id),
        type: view.isPull ? "pull_request_comment" : "issue_comment",
        action: "deleted",
        issueId: view.comment.issueId,
        commentId: id,
      });
      await comments.deleteComment(trx, id);
      await trx.deleteFrom("reaction").where("commentId", "=", id).execute();
      await issues.recountComments(trx, view.comment.issueId);
    });
  }

  /** A comment the caller may change: its own, or any when a writer. */
  private async mine(access: RepoAccess, id: number): Promise<CommentView | undefined> {
    writerOf(access); // anonymous callers are 401 before anything is read
    const view = await this.get(access, id);
    if (!view) return undefined;
    if (!mayEditComment(access, view.comment, view.isPull)) throw new PermissionDeniedError("");
    return view;
  }
}
