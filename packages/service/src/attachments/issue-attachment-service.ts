import { type Issue, NotFoundError, PermissionDeniedError } from "@kiln/domain";
import type { AttachmentRow } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { isRepoAdmin } from "../access/repo-permission.js";
import type { CommentService, CommentView } from "../issues/comment-service.js";
import { type IssueService, isIssueWriter } from "../issues/issue-service.js";
import type { AttachmentService } from "./attachment-service.js";

/**
 * Attachments of issues and comments (Forgejo's routers/api/v1/repo/issue_attachment.go and
 * issue_comment_attachment.go): who may read them is who may read the issue (or pull request);
 * an issue's may be changed by its poster, repository admins, site admins and writers of its
 * issues (or pull requests); a comment's, as Forgejo, by its poster or an admin who may also
 * write the issues (or pull requests).
 */
export class IssueAttachmentService {
  constructor(
    private readonly issues: IssueService,
    private readonly comments: CommentService,
    private readonly attachments: AttachmentService,
  ) {}

  /** The issue, when the caller may read it (404 otherwise). */
  issue(ctx: RepoAccess, index: number): Promise<Issue> {
    return this.issues.get(ctx, index);
  }

  /** The issue, when the caller may also change its attachments (403 otherwise). */
  async writableIssue(ctx: RepoAccess, index: number): Promise<Issue> {
    const issue = await this.issues.get(ctx, index);
    const doer = ctx.viewer;
    const may =
      doer !== null &&
      (doer.id === issue.posterId ||
        isRepoAdmin(ctx.permission) ||
        doer.isAdmin ||
        isIssueWriter(ctx, issue.isPull));
    if (!may) throw new PermissionDeniedError("user should have permission to write issue");
    return issue;
  }

  /** An issue's own attachments. */
  async listOfIssue(ctx: RepoAccess, index: number): Promise<AttachmentRow[]> {
    return this.attachments.ofIssue((await this.issue(ctx, index)).id);
  }

  /**
   * An attachment of the issue (Forgejo's attachmentBelongsToRepoOrIssue: one of its comments'
   * attachments names the issue too, so it is found here as well).
   */
  async ofIssue(ctx: RepoAccess, issue: Issue, id: number): Promise<AttachmentRow> {
    const row = await this.attachments.find(ctx.repo.id, id);
    if (!row || row.issueId !== issue.id) throw new NotFoundError("no such attachment in issue");
    return row;
  }

  /** A plain comment the caller may read (404 for another repository's or a timeline event). */
  async comment(ctx: RepoAccess, id: number): Promise<CommentView> {
    const view = await this.comments.get(ctx, id);
    if (!view) throw new NotFoundError(`comment does not exist [id: ${id}, issue_id: 0]`);
    return view;
  }

  /** The comment, when the caller may also change its attachments (403 otherwise). */
  async writableComment(ctx: RepoAccess, id: number): Promise<CommentView> {
    const view = await this.comment(ctx, id);
    const doer = ctx.viewer;
    const may =
      doer !== null &&
      (doer.id === view.comment.posterId || isRepoAdmin(ctx.permission) || doer.isAdmin) &&
      isIssueWriter(ctx, view.isPull);
    if (!may) throw new PermissionDeniedError("user should have permission to edit comment");
    return view;
  }

  async listOfComment(ctx: RepoAccess, id: number): Promise<AttachmentRow[]> {
    const view = await this.comment(ctx, id);
    return this.attachments.ofComments([view.comment.id]);
  }

  /** An attachment of the comment. */
  async ofComment(ctx: RepoAccess, view: CommentView, id: number): Promise<AttachmentRow> {
    const row = await this.attachments.find(ctx.repo.id, id);
    if (!row || row.commentId !== view.comment.id) throw new NotFoundError("no such attachment in comment");
    return row;
  }
}
