import { type Issue, NotFoundError, PermissionDeniedError } from "@kiln/domain";
import type { AttachmentRow } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { mayChangeCommentAttachments, mayChangeIssueAttachments } from "../access/issue-rules.js";
import type { CommentService, CommentView } from "../issues/comment-service.js";
import type { IssueService } from "../issues/issue-service.js";
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
  issue(access: RepoAccess, index: number): Promise<Issue> {
    return this.issues.get(access, index);
  }

  /** The issue, when the caller may also change its attachments (403 otherwise). */
  async writableIssue(access: RepoAccess, index: number): Promise<Issue> {
    const issue = await this.issues.get(access, index);
    if (!mayChangeIssueAttachments(access, issue))
      throw new PermissionDeniedError("user should have permission to write issue");
    return issue;
  }

  /** An issue's own attachments. */
  async listOfIssue(access: RepoAccess, index: number): Promise<AttachmentRow[]> {
    return this.attachments.ofIssue((await this.issue(access, index)).id);
  }

  /**
   * An attachment of the issue (Forgejo's attachmentBelongsToRepoOrIssue: one of its comments'
   * attachments names the issue too, so it is found here as well).
   */
  async ofIssue(access: RepoAccess, issue: Issue, id: number): Promise<AttachmentRow> {
    const row = await this.attachments.find(access.repo.id, id);
    if (!row || row.issueId !== issue.id) throw new NotFoundError("no such attachment in issue");
    return row;
  }

  /** A plain comment the caller may read (404 for another repository's or a timeline event). */
  async comment(access: RepoAccess, id: number): Promise<CommentView> {
    const view = await this.comments.get(access, id);
    if (!view) throw new NotFoundError(`comment does not exist [id: ${id}, issue_id: 0]`);
    return view;
  }

  /** The comment, when the caller may also change its attachments (403 otherwise). */
  async writableComment(access: RepoAccess, id: number): Promise<CommentView> {
    const view = await this.comment(access, id);
    if (!mayChangeCommentAttachments(access, view.comment, view.isPull))
      throw new PermissionDeniedError("user should have permission to edit comment");
    return view;
  }

  async listOfComment(access: RepoAccess, id: number): Promise<AttachmentRow[]> {
    const view = await this.comment(access, id);
    return this.attachments.ofComments([view.comment.id]);
  }

  /** An attachment of the comment. */
  async ofComment(access: RepoAccess, view: CommentView, id: number): Promise<AttachmentRow> {
    const row = await this.attachments.find(access.repo.id, id);
    if (!row || row.commentId !== view.comment.id) throw new NotFoundError("no such attachment in comment");
    return row;
  }
}
