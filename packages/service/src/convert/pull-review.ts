import { type api, formatTime, type Repository, ReviewType, type Settings } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import { diffHunkOf } from "../pulls/review-hunk.js";
import type { ReviewCommentView, ReviewView } from "../pulls/review-views.js";
import { repoLinks } from "./git.js";
import { apiUserOrGhost } from "./issue.js";
import { toApiTeam } from "./org.js";
import { toApiUser } from "./user.js";

const STATES = {
  [ReviewType.pending]: "PENDING",
  [ReviewType.approve]: "APPROVED",
  [ReviewType.comment]: "COMMENT",
  [ReviewType.requestChanges]: "REQUEST_CHANGES",
  [ReviewType.request]: "REQUEST_REVIEW",
} as const;

/**
 * Forgejo's `PullReview` (services/convert.ToPullReview): `user` is null for a team's review
 * request, `html_url` points at the review's timeline entry (empty while pending and for
 * requests), `pull_request_url` is the pull request's web address.
 */
export function toApiPullReview(
  view: ReviewView,
  repo: Repository,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.PullReview> {
  const { review } = view;
  const pullUrl = `${repoLinks(repo, settings).html}/pulls/${view.index}`;
  return {
    id: review.id,
    user:
      review.reviewerId === null
        ? null
        : view.reviewer
          ? toApiUser(view.reviewer, sight, settings)
          : apiUserOrGhost(null, sight, settings),
    team: view.team ? toApiTeam(view.team, null) : null,
    state: STATES[review.type] ?? "",
    body: review.content,
    commit_id: review.commitId,
    stale: review.stale,
    official: review.official,
    dismissed: review.dismissed,
    comments_count: view.commentsCount,
    submitted_at: formatTime(review.createdAt),
    updated_at: formatTime(review.updatedAt),
    html_url: view.entryId === null ? "" : `${pullUrl}#issuecomment-${view.entryId}`,
    pull_request_url: pullUrl,
  };
}

/**
 * Forgejo's `PullReviewComment` (services/convert.ToPullReviewComment): `position` is the line on
 * the new side, `original_position` the line on the old side, `diff_hunk` the stored diff from
 * its hunk header on; a pending review's comments link to the files view.
 */
export function toApiPullReviewComment(
  view: ReviewCommentView,
  repo: Repository,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.PullReviewComment> {
  const { comment } = view;
  const pullUrl = `${repoLinks(repo, settings).html}/pulls/${view.index}`;
  const pending = view.review.type === ReviewType.pending;
  return {
    id: comment.id,
    body: comment.content,
    user: apiUserOrGhost(view.poster, sight, settings),
    resolver: view.resolver ? toApiUser(view.resolver, sight, settings) : null,
    pull_request_review_id: view.review.id,
    created_at: formatTime(comment.createdAt),
    updated_at: formatTime(comment.updatedAt),
    path: comment.treePath,
    commit_id: comment.commitSha,
    original_commit_id: comment.oldRef,
    diff_hunk: diffHunkOf(comment.patch),
    position: Math.max(comment.line, 0),
    original_position: Math.max(-comment.line, 0),
    html_url: `${pullUrl}${pending ? "/files" : ""}#issuecomment-${comment.id}`,
    pull_request_url: pullUrl,
  };
}
