import {
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  ReviewType,
} from "@kiln/domain";
import { issues, notifications, reviews, users } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { mentionedNames } from "../issues/issue-rules.js";
import { isIssueWriter } from "../issues/issue-service.js";
import type { RepoService } from "../repos/repo-service.js";
import { assertNotBlocked } from "../social/block-service.js";
import { cutPatches } from "./review-hunk.js";
import { type LineCommentInput, lineOf, type ReviewService } from "./review-service.js";
import { loadReviewCommentViews, type ReviewCommentView } from "./review-views.js";

/**
 * Line comments of reviews (Forgejo's GetPullReviewComments, CreatePullReviewComment,
 * GetPullReviewComment and DeletePullReviewComment). A comment is reached through its review,
 * so a pending review's comments stay as private as the review; a comment of another review or
 * of another kind is not found there (Forgejo looks at the comment alone).
 */
export class ReviewCommentService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly reviewService: ReviewService,
  ) {}

  /** A page of the review's line comments, in the order they were made. */
  async list(
    ctx: RepoAccess,
    index: number,
    id: number,
    page: PageRequest,
  ): Promise<Paged<ReviewCommentView>> {
    const { review } = await this.reviewService.target(ctx, index, id);
    const found = await reviews.listCodeComments(this.ctx.db, review.id, page);
    return {
      total: found.total,
      items: await loadReviewCommentViews(this.ctx.db, index, review, found.items),
    };
  }

  async get(ctx: RepoAccess, index: number, id: number, commentId: number): Promise<ReviewCommentView> {
    const { review } = await this.reviewService.target(ctx, index, id);
    const comment = await reviews.findCodeComment(this.ctx.db, commentId);
    if (!comment || comment.reviewId !== review.id) {
      throw new NotFoundError(`comment does not exist [id: ${commentId}, issue_id: 0]`);
    }
    return (await loadReviewCommentViews(this.ctx.db, index, review, [comment]))[0] as ReviewCommentView;
  }

  /**
   * Adds a line comment to the review (any review the caller sees, as Forgejo allows replies to
   * others' reviews; not a review request, which holds no comments). The diff around the line is
   * the one an earlier comment of the review on that line kept, else cut from the pull request's
   * diff now. A comment on a submitted review notifies the participants.
   */
  async create(
    ctx: RepoAccess,
    index: number,
    id: number,
    input: LineCommentInput,
  ): Promise<ReviewCommentView> {
    const doer = writerOf(ctx);
    const { issue, pull, review } = await this.reviewService.target(ctx, index, id);
    await assertNotBlocked(
      this.ctx.db,
      issue.posterId === null ? [ctx.repo.ownerId] : [ctx.repo.ownerId, issue.posterId],
      doer.id,
    );
    if (review.type === ReviewType.request) {
      throw new InvalidArgumentError("a review request can not take line comments");
    }
    const line = lineOf(input);
    const earlier = await reviews.patchOfLine(this.ctx.db, review.id, input.path, line);
    const patch =
      earlier?.patch ??
      (
        await cutPatches(await this.repos.git(ctx.repo), pull.mergeBase, pull.headCommitId, [
          { path: input.path, line },
        ])
      )[0] ??
      "";
    const commitSha = earlier?.commitSha || review.commitId || pull.headCommitId;
    const mentioned = await users.findUsersByNames(this.ctx.db, mentionedNames(input.body));
    const at = new Date();
    const comment = await this.ctx.db.transaction().execute(async (trx) => {
      const created = await reviews.insertCodeComment(
        trx,
        {
          issueId: issue.id,
          reviewId: review.id,
          posterId: doer.id,
          content: input.body,
          treePath: input.path,
          line,
          commitSha,
          patch,
        },
        at,
      );
      if (review.type !== ReviewType.pending) {
        await issues.markMentioned(
          trx,
          issue.id,
          mentioned.map((user) => user.id),
        );
        await notifications.notifyIssueChange(trx, {
          issueId: issue.id,
          repoId: ctx.repo.id,
          isPull: true,
          actorId: doer.id,
          commentId: created.id,
          at,
        });
      }
      return created;
    });
    return (await loadReviewCommentViews(this.ctx.db, index, review, [comment]))[0] as ReviewCommentView;
  }

  /** Deletes a line comment: its poster, or anyone who may write pull requests (403 otherwise). */
  async delete(ctx: RepoAccess, index: number, id: number, commentId: number): Promise<void> {
    const doer = writerOf(ctx);
    const { comment } = await this.get(ctx, index, id, commentId);
    if (comment.posterId !== doer.id && !isIssueWriter(ctx, true)) throw new PermissionDeniedError("");
    await reviews.deleteCodeComment(this.ctx.db, comment.id);
  }
}
