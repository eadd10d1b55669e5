import {
  CommentType,
  InvalidArgumentError,
  type Issue,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  type PullRequest,
  type Review,
  ReviewType,
  type User,
} from "@kiln/domain";
import { comments, issues, reviews, teams, users } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { mayDeleteReview, mayDismissReview, seesPendingReview } from "../access/pull-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { mentionedNames } from "../issues/issue-rules.js";
import type { RepoService } from "../repos/repo-service.js";
import { assertNotBlocked } from "../social/block-service.js";
import type { MergeService } from "./merge-service.js";
import type { PullService } from "./pull-service.js";
import { cutPatches } from "./review-hunk.js";
import { isDecision, type ReviewerRules, reviewTypeOf } from "./review-rules.js";
import { type PreparedLineComment, recordSubmission } from "./review-submit.js";
import { loadReviewViews, type ReviewView } from "./review-views.js";

/** The webhook event a submitted review fires (Forgejo's PullRequestReview; a pending one none). */
const REVIEW_EVENTS: Partial<
  Record<
    number,
    "pull_request_review_approved" | "pull_request_review_rejected" | "pull_request_review_comment"
  >
> = {
  [ReviewType.approve]: "pull_request_review_approved",
  [ReviewType.requestChanges]: "pull_request_review_rejected",
  [ReviewType.comment]: "pull_request_review_comment",
};

/** A line comment as a client gives it (Forgejo's CreatePullReviewComment). */
export interface LineCommentInput {
  readonly path: string;
  readonly body: string;
  readonly oldPosition: number;
  readonly newPosition: number;
}

/** `POST …/pulls/{index}/reviews`, in service terms. */
export interface CreateReviewInput {
  readonly event: string;
  readonly body: string;
  /** The commit reviewed; the pull request's head when absent. */
  readonly commitId?: string | undefined;
  readonly comments: readonly LineCommentInput[];
}

/** A review of a pull request with the pull request, as a single-review route resolves them. */
export interface ReviewTarget {
  readonly issue: Issue;
  readonly pull: PullRequest;
  readonly review: Review;
}

/** The line a comment is on: the old side (negative) when an old position is given (Forgejo's rule). */
export function lineOf(c: { readonly oldPosition: number; readonly newPosition: number }): number {
  return c.oldPosition > 0 ? -c.oldPosition : c.newPosition;
}

/**
 * Reviews of pull requests (Forgejo's routers/api/v1/repo/pull_review.go and services/pull/review.go):
 * listing, reading, creating, submitting, deleting and dismissing them. Any reader of the pull
 * request may review it; each change, its timeline entry and its notifications commit together.
 * An approval or a dismissal may let a scheduled merge happen, which is tried right after.
 */
export class ReviewService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly pulls: PullService,
    private readonly merges: MergeService,
    private readonly rules: ReviewerRules,
  ) {}

  /** A page of the pull request's reviews and requests, oldest first; others' pending reviews are left out. */
  async list(access: RepoAccess, index: number, page: PageRequest): Promise<Paged<ReviewView>> {
    const { issue } = await this.pulls.get(access, index);
    const viewer = access.viewer;
    const found = await reviews.listReviews(
      this.ctx.db,
      issue.id,
      viewer ? { id: viewer.id, isAdmin: viewer.isAdmin } : null,
      page,
    );
    return { total: found.total, items: await loadReviewViews(this.ctx.db, index, found.items) };
  }

  /**
   * The review `id` of pull request `index` as Forgejo's prepareSingleReview finds it: 404 when
   * missing, of another pull request, or pending and not the caller's (site admins see all).
   */
  async target(access: RepoAccess, index: number, id: number): Promise<ReviewTarget> {
    const { issue, pull } = await this.pulls.get(access, index);
    const review = await reviews.findReviewById(this.ctx.db, id);
    if (!review) throw new NotFoundError("GetReviewByID");
    if (review.issueId !== issue.id) throw new NotFoundError("ReviewNotInPR");
    const viewer = access.viewer;
    if (review.type === ReviewType.pending && !seesPendingReview(viewer, review)) {
      throw new NotFoundError("GetReviewByID");
    }
    return { issue, pull, review };
  }

  async get(access: RepoAccess, index: number, id: number): Promise<ReviewView> {
    return this.view(index, (await this.target(access, index, id)).review);
  }

  /** The API view of one review. */
  async view(index: number, review: Review): Promise<ReviewView> {
    return (await loadReviewViews(this.ctx.db, index, [review]))[0] as ReviewView;
  }

  /**
   * Creates a review (Forgejo's CreatePullReview): the event is checked, the commit defaults to
   * the head, the line comments join the doer's pending review, which is then submitted (or stays
   * pending for any other event). Answers 200 in Forgejo, with the review.
   */
  async create(access: RepoAccess, index: number, input: CreateReviewInput): Promise<ReviewView> {
    const doer = writerOf(access);
    const { issue, pull } = await this.pulls.get(access, index);
    // A review is a comment: refused to whom the repository's owner or the poster blocks.
    await assertNotBlocked(
      this.ctx.db,
      issue.posterId === null ? [access.repo.ownerId] : [access.repo.ownerId, issue.posterId],
      doer.id,
    );
    const type = reviewTypeOf(input.event, input.body, input.comments.length > 0, issue.posterId === doer.id);
    const commitId = input.commitId || pull.headCommitId;
    const lines = input.comments.map((c) => ({ path: c.path, line: lineOf(c) }));
    const patches = await cutPatches(
      await this.repos.git(access.repo),
      pull.mergeBase,
      pull.headCommitId,
      lines,
    );
    const lineComments = input.comments.map((c, i) => ({
      path: c.path,
      line: lineOf(c),
      body: c.body,
      patch: patches[i] ?? "",
      commitSha: commitId,
    }));
    return this.submitAs(access, doer, { issue, pull }, type, input.body, commitId, lineComments);
  }

  /**
   * Submits a pending review (Forgejo's SubmitPullReview) as of the current head: only its
   * reviewer may, only while pending, and not to stay pending. A comment needs a body or one of
   * the review's line comments (Forgejo never counts them here, Kiln does).
   */
  async submit(
    access: RepoAccess,
    index: number,
    id: number,
    input: { readonly event: string; readonly body: string },
  ): Promise<ReviewView> {
    const doer = writerOf(access);
    const { issue, pull, review } = await this.target(access, index, id);
    if (review.type !== ReviewType.pending) {
      throw new InvalidArgumentError("only a pending review can be submitted");
    }
    if (review.reviewerId !== doer.id)
      throw new PermissionDeniedError("only the reviewer can submit a review");
    const counted = (await reviews.codeCommentCounts(this.ctx.db, [review.id])).get(review.id) ?? 0;
    const type = reviewTypeOf(input.event, input.body, counted > 0, issue.posterId === doer.id);
    if (type === ReviewType.pending) throw new InvalidArgumentError("review stay pending");
    return this.submitAs(access, doer, { issue, pull }, type, input.body, pull.headCommitId, []);
  }

  /**
   * Deletes a review (Forgejo's DeletePullReview): its reviewer or a site admin (repository
   * admins may not), never a review request (422; Forgejo answers 500). Its line comments and
   * timeline entries go with it; if it was official, the reviewer's latest remaining decision
   * becomes official again.
   */
  async delete(access: RepoAccess, index: number, id: number): Promise<void> {
    const doer = writerOf(access);
    const { issue, review } = await this.target(access, index, id);
    if (!mayDeleteReview(doer, review)) {
      throw new PermissionDeniedError("only admin and user itself can delete a review");
    }
    if (review.type === ReviewType.request) {
      throw new InvalidArgumentError("review request can not be deleted using this method");
    }
    await this.ctx.db.transaction().execute(async (trx) => {
      await reviews.deleteReview(trx, review.id);
      if (review.official && review.reviewerId !== null) {
        await reviews.restoreOfficial(trx, issue.id, review.reviewerId);
      }
      await issues.recountComments(trx, issue.id);
    });
  }

  /**
   * Dismisses a review, or takes the dismissal back (Forgejo's dismissReview): repository admins
   * only, approvals and requests for changes only, on open pull requests only (403 each, with
   * Forgejo's messages). `priors` also dismisses the reviewer's other reviews. A dismissal adds a
   * `dismiss_review` entry with the message, notifies the participants, and may let a scheduled
   * merge happen.
   */
  async dismiss(
    access: RepoAccess,
    index: number,
    id: number,
    input: { readonly dismiss: boolean; readonly message: string; readonly priors: boolean },
  ): Promise<ReviewView> {
    const doer = writerOf(access);
    if (!mayDismissReview(access)) throw new PermissionDeniedError("Must be repo admin");
    const { issue, pull, review } = await this.target(access, index, id);
    if (!isDecision(review.type)) {
      throw new PermissionDeniedError(
        "not need to dismiss this review because it's type is not Approve or change request",
      );
    }
    if (issue.isClosed || pull.hasMerged) {
      throw new PermissionDeniedError("can't dismiss a review associated to a closed or merged PR");
    }
    const at = new Date();
    await this.ctx.db.transaction().execute(async (trx) => {
      await reviews.setDismissed(trx, [review.id], input.dismiss);
      if (input.priors && review.reviewerId !== null) {
        const others = await reviews.undismissedOf(trx, issue.id, review.reviewerId, review.id);
        await reviews.setDismissed(trx, others, true);
      }
      if (!input.dismiss) return;
      const entry = await comments.insertComment(
        trx,
        {
          issueId: issue.id,
          type: CommentType.dismissReview,
          posterId: doer.id,
          content: input.message,
          reviewId: review.id,
        },
        at,
      );
      // A dismissal sends no webhook and writes no feed entry; it notifies the participants.
      await this.ctx.events.record(trx, {
        ...inRepo(access.repo, doer.id, at),
        type: "issue_touched",
        issueId: issue.id,
        isPull: true,
        commentId: entry.id,
      });
    });
    if (input.dismiss) await this.merges.tryScheduled(access, index);
    return this.view(index, (await reviews.findReviewById(this.ctx.db, review.id)) as Review);
  }

  /** Works out a submission (official, stale, answered team requests, mentions), records it, and tries a scheduled merge after an approval. */
  private async submitAs(
    access: RepoAccess,
    doer: User,
    target: { readonly issue: Issue; readonly pull: PullRequest },
    type: Review["type"],
    body: string,
    commitId: string,
    lineComments: readonly PreparedLineComment[],
  ): Promise<ReviewView> {
    const { issue, pull } = target;
    const decision = isDecision(type);
    const official = decision && (await this.rules.isOfficial(access.repo, pull.baseBranch, doer, access));
    const answeredTeamIds =
      decision && access.owner.type === "organization"
        ? (await teams.teamsOfMember(this.ctx.db, access.owner.id, doer.id)).map((team) => team.id)
        : [];
    const texts = [body, ...lineComments.map((c) => c.body)].join("\n");
    const mentioned = await users.findUsersByNames(this.ctx.db, mentionedNames(texts));
    const pending = await reviews.findPendingReview(this.ctx.db, issue.id, doer.id);
    const submission = {
      repoId: access.repo.id,
      issue,
      pull,
      doer,
      type,
      body,
      commitId,
      official,
      stale: decision && commitId !== pull.headCommitId,
      pending,
      lineComments,
      answeredTeamIds,
      mentionedIds: mentioned.map((user) => user.id),
    };
    const at = new Date();
    const review = await this.ctx.db.transaction().execute(async (trx) => {
      const { review: submitted, entryId } = await recordSubmission(trx, submission, at);
      const eventType = REVIEW_EVENTS[submitted.type];
      if (eventType) {
        await this.ctx.events.record(trx, {
          ...inRepo(access.repo, doer.id, at),
          type: eventType,
          action: "reviewed",
          issueId: issue.id,
          reviewId: submitted.id,
          ...(entryId === null ? {} : { commentId: entryId }),
        });
      }
      return submitted;
    });
    if (type === ReviewType.approve) await this.merges.tryScheduled(access, pull.index);
    return this.view(pull.index, review);
  }
}
