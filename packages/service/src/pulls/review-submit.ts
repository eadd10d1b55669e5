import {
  CommentType,
  type Issue,
  type PullRequest,
  type Review,
  ReviewType,
  type ReviewTypeValue,
  type User,
} from "@kiln/domain";
import { comments, type Db, issues, reviews } from "@kiln/storage";
import { isDecision } from "./review-rules.js";

/** A line comment to attach, with its stored diff already cut. */
export interface PreparedLineComment {
  readonly path: string;
  readonly line: number;
  readonly body: string;
  readonly patch: string;
  readonly commitSha: string;
}

/** Everything a submission writes, worked out before its transaction. */
export interface Submission {
  readonly repoId: number;
  readonly issue: Issue;
  readonly pull: PullRequest;
  readonly doer: User;
  readonly type: ReviewTypeValue;
  readonly body: string;
  readonly commitId: string;
  readonly official: boolean;
  readonly stale: boolean;
  /** The doer's pending review, which the submission turns into the review. */
  readonly pending: Review | undefined;
  readonly lineComments: readonly PreparedLineComment[];
  /** Teams whose review requests a decision by the doer answers (the doer's teams, in an organization's repository). */
  readonly answeredTeamIds: readonly number[];
  /** Users mentioned in the body and the line comments. */
  readonly mentionedIds: readonly number[];
}

/**
 * Records a review in the caller's transaction, as Forgejo's SubmitReview does: the doer's
 * pending review (or a new one) takes the line comments and becomes the review. A decision
 * (approval or request for changes) makes only this review of the doer official, and dismisses
 * the doer's earlier decisions. A submitted review answers the doer's review requests (and, for a
 * decision, those of the doer's teams), adds a `review` entry to the timeline (answered as
 * `entryId`, for the review's event, which notifies the participants) and counts as a comment; a
 * pending one stays private.
 */
export async function recordSubmission(
  trx: Db,
  s: Submission,
  at: Date,
): Promise<{ readonly review: Review; readonly entryId: number | null }> {
  const { issue, doer } = s;
  let entryId: number | null = null;
  if (isDecision(s.type)) {
    await reviews.clearOfficial(trx, issue.id, doer.id);
    await reviews.dismissEarlierDecisions(trx, issue.id, doer.id);
  }
  const target =
    s.pending ??
    (await reviews.insertReview(
      trx,
      {
        type: ReviewType.pending,
        reviewerId: doer.id,
        reviewerTeamId: null,
        issueId: issue.id,
        content: "",
        official: false,
        commitId: s.commitId,
        stale: false,
      },
      at,
    ));
  for (const c of s.lineComments) {
    await reviews.insertCodeComment(
      trx,
      {
        issueId: issue.id,
        reviewId: target.id,
        posterId: doer.id,
        content: c.body,
        treePath: c.path,
        line: c.line,
        commitSha: c.commitSha,
        patch: c.patch,
      },
      at,
    );
  }
  await reviews.updateReview(
    trx,
    target.id,
    { type: s.type, content: s.body, official: s.official, commitId: s.commitId, stale: s.stale },
    at,
  );
  if (s.type !== ReviewType.pending) {
    await reviews.deleteUserRequests(trx, issue.id, doer.id);
    if (isDecision(s.type)) await reviews.deleteTeamRequests(trx, issue.id, s.answeredTeamIds);
    const entry = await comments.insertComment(
      trx,
      {
        issueId: issue.id,
        type: CommentType.review,
        posterId: doer.id,
        content: s.body,
        reviewId: target.id,
      },
      at,
    );
    await issues.recountComments(trx, issue.id);
    await issues.updateIssue(trx, issue.id, { updatedAt: at });
    await issues.markMentioned(trx, issue.id, s.mentionedIds);
    entryId = entry.id;
  }
  return { review: (await reviews.findReviewById(trx, target.id)) as Review, entryId };
}
