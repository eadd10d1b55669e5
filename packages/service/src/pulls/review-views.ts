import type { Review, Team, User } from "@kiln/domain";
import { type Db, reviews, teams, users } from "@kiln/storage";

/** A review as the API shows it, with what its JSON needs loaded. */
export interface ReviewView {
  readonly review: Review;
  /** The pull request's number (its URLs). */
  readonly index: number;
  /** Null for a team's review request (or an account that is gone). */
  readonly reviewer: User | null;
  readonly team: Team | null;
  /** Line comments of the review (`comments_count`). */
  readonly commentsCount: number;
  /** The timeline entry the review added when submitted (`html_url`), if any. */
  readonly entryId: number | null;
}

/** A line comment as the API shows it. */
export interface ReviewCommentView {
  readonly comment: reviews.CodeComment;
  readonly review: Review;
  readonly index: number;
  readonly poster: User | null;
  readonly resolver: User | null;
}

/** Loads the views of reviews of one pull request: reviewers, teams, counts and entries in a few queries. */
export async function loadReviewViews(db: Db, index: number, list: readonly Review[]): Promise<ReviewView[]> {
  if (list.length === 0) return [];
  const ids = list.map((r) => r.id);
  const userIds = [...new Set(list.map((r) => r.reviewerId).filter((id): id is number => id !== null))];
  const teamIds = [...new Set(list.map((r) => r.reviewerTeamId).filter((id): id is number => id !== null))];
  const [people, found, counts, entries] = await Promise.all([
    users.findUsersByIds(db, userIds),
    Promise.all(teamIds.map((id) => teams.findTeamById(db, id))),
    reviews.codeCommentCounts(db, ids),
    reviews.reviewEntryIds(db, ids),
  ]);
  const byUser = new Map(people.map((u) => [u.id, u]));
  const byTeam = new Map(found.filter((t): t is Team => t !== undefined).map((t) => [t.id, t]));
  return list.map((review) => ({
    review,
    index,
    reviewer: review.reviewerId === null ? null : (byUser.get(review.reviewerId) ?? null),
    team: review.reviewerTeamId === null ? null : (byTeam.get(review.reviewerTeamId) ?? null),
    commentsCount: counts.get(review.id) ?? 0,
    entryId: entries.get(review.id) ?? null,
  }));
}

/** Loads the views of line comments of one review, posters and resolvers in one query. */
export async function loadReviewCommentViews(
  db: Db,
  index: number,
  review: Review,
  list: readonly reviews.CodeComment[],
): Promise<ReviewCommentView[]> {
  const ids = new Set<number>();
  for (const c of list) {
    if (c.posterId !== null) ids.add(c.posterId);
    if (c.resolveDoerId !== null) ids.add(c.resolveDoerId);
  }
  const people = await users.findUsersByIds(db, [...ids]);
  const byId = new Map(people.map((u) => [u.id, u]));
  return list.map((comment) => ({
    comment,
    review,
    index,
    poster: comment.posterId === null ? null : (byId.get(comment.posterId) ?? null),
    resolver: comment.resolveDoerId === null ? null : (byId.get(comment.resolveDoerId) ?? null),
  }));
}
