import {
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  ReviewType,
} from "@kiln/domain";
import { issues, reviews, users } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { mayEditComment } from "../access/issue-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { mentionedNames } from "../issues/issue-rules.js";
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
    access: RepoAccess,
    index: number,
    id: number,
    page: PageRequest,
  ): Promise<Paged<ReviewCommentView>> {
    const { review } = await this.reviewService.target(access, index, id);
    const found = await reviews.listCodeComments(this.ctx.db, review.id, page);
    return {
      total: found.total,
      items: await loadReviewCommentViews(this.ctx.db, index, review, found.items),
    };
  }

  async get(access: RepoAccess, index: number, id: number, commentId: number): Promise<ReviewCommentView> {
    const { review } = await this.reviewService.target(access, index, id);
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
    access: RepoAccess,
    index: number,
    id: number,
    input: LineCommentInput,
  ): Promise<ReviewCommentView> {
    const doer = writerOf(access);
    const { issue, pull, review } = await this.reviewService.target(access, index, id);
    await assertNotBlocked(
      this.ctx.db,
      issue.posterId === null ? [access.repo.ownerId] : [access.repo.ownerId, issue.posterId],
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
        await cutPatches(await this.repos.git(access.repo), pull.mergeBase, pull.headCommitId, [
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
        // A line comment on a submitted review sends no webhook; it notifies the participants.
        await this.ctx.events.record(trx, {
          ...inRepo(access.repo, doer.id, at),
          type: "issue_touched",
          issueId: issue.id,
          isPull: true,
          commentId: created.id,
        });
      }
      return created;
    });
    return (await loadReviewCommentViews(this.ctx.db, index, review, [comment]))[0] as ReviewCommentView;
  }

  /** Deletes a line comment: its poster, or anyone who may write pull requests (403 otherwise). */
  async delete(access: RepoAccess, index: number, id: number, commentId: number): Promise<void> {
    writerOf(access); // anonymous callers are 401 before anything is read
    const { comment } = await this.get(access, index, id, commentId);
    if (!mayEditComment(access, comment, true)) throw new PermissionDeniedError("");
    await reviews.deleteCodeComment(this.ctx.db, comment.id);
  }
}
