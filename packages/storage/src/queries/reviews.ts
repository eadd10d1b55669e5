import { CommentType, type Review, ReviewType, type ReviewTypeValue } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";

export const REVIEW_COLUMNS = [
  "review.id",
  "review.type",
  "review.reviewerId",
  "review.reviewerTeamId",
  "review.issueId",
  "review.content",
  "review.official",
  "review.commitId",
  "review.stale",
  "review.dismissed",
  "review.createdAt",
  "review.updatedAt",
] as const;

type Row = Omit<Review, "type"> & { type: number };

/** The timeline entry a submitted review adds. */
const REVIEW_ENTRY = CommentType.review;

export function toReview(row: Row): Review {
  return { ...row, type: row.type as ReviewTypeValue };
}

/** A new review or review request. */
export interface NewReview {
  readonly type: ReviewTypeValue;
  readonly reviewerId: number | null;
  readonly reviewerTeamId: number | null;
  readonly issueId: number;
  readonly content: string;
  readonly official: boolean;
  readonly commitId: string;
  readonly stale: boolean;
}

export async function insertReview(db: Db, review: NewReview, at: Date): Promise<Review> {
  const { id } = await db
    .insertInto("review")
    .values({ ...review, createdAt: at, updatedAt: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await findReviewById(db, id)) as Review;
}

export async function findReviewById(db: Db, id: number): Promise<Review | undefined> {
  const row = await db.selectFrom("review").select(REVIEW_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row && toReview(row);
}

/**
 * The reviews that decide a merge (Forgejo's `GetReviewsByIssueID`): per user, the latest
 * review that approves, requests changes or is a review request and was not dismissed; oldest
 * first. These are also the pull request's `requested_reviewers`.
 */
export async function latestDecidingReviews(db: Db, issueId: number): Promise<Review[]> {
  const rows = await db
    .selectFrom("review")
    .select(REVIEW_COLUMNS)
    .where("review.id", "in", (eb) =>
      eb
        .selectFrom("review as r")
        .select(sql<number>`max(r.id)`.as("id"))
        .where("r.issueId", "=", issueId)
        .where("r.reviewerId", "is not", null)
        .where("r.type", "in", [ReviewType.approve, ReviewType.requestChanges, ReviewType.request])
        .where("r.dismissed", "=", false)
        .groupBy("r.reviewerId"),
    )
    .orderBy("review.updatedAt")
    .orderBy("review.id")
    .execute();
  return rows.map(toReview);
}

/** What a pull request's reviews say for a merge under a protection rule. */
export interface ReviewVerdict {
  /** Official approvals not dismissed (and not stale, when stale ones are ignored). */
  readonly approvals: number;
  /** An official request for changes that was not dismissed. */
  readonly rejected: boolean;
  /** An official review request still open. */
  readonly officialRequests: boolean;
}

/** Counts what decides a merge, as Forgejo's GetGrantedApprovalsCount and MergeBlockedBy… do. */
export async function reviewVerdict(db: Db, issueId: number, ignoreStale: boolean): Promise<ReviewVerdict> {
  const row = await db
    .selectFrom("review")
    .select([
      sql<number>`count(*) filter (where type = ${ReviewType.approve} and official and not dismissed${
        ignoreStale ? sql` and not stale` : sql``
      })`.as("approvals"),
      sql<number>`count(*) filter (where type = ${ReviewType.requestChanges} and official and not dismissed)`.as(
        "rejections",
      ),
      sql<number>`count(*) filter (where type = ${ReviewType.request} and official)`.as("requests"),
    ])
    .where("issueId", "=", issueId)
    .executeTakeFirstOrThrow();
  return {
    approvals: Number(row.approvals),
    rejected: Number(row.rejections) > 0,
    officialRequests: Number(row.requests) > 0,
  };
}

/**
 * After the head moved: reviews of other commits become stale, those of the new head fresh
 * (Forgejo's MarkReviewsAsStale / NotStale). With `dismissApprovals`, the approvals not yet
 * dismissed are dismissed; returns their ids.
 */
export async function headMoved(
  db: Db,
  issueId: number,
  headSha: string,
  dismissApprovals: boolean,
): Promise<number[]> {
  await db
    .updateTable("review")
    .set({ stale: sql<boolean>`commit_id <> ${headSha}` })
    .where("issueId", "=", issueId)
    .where("type", "in", [ReviewType.approve, ReviewType.requestChanges, ReviewType.comment])
    .execute();
  if (!dismissApprovals) return [];
  const rows = await db
    .updateTable("review")
    .set({ dismissed: true })
    .where("issueId", "=", issueId)
    .where("type", "=", ReviewType.approve)
    .where("dismissed", "=", false)
    .returning("id")
    .execute();
  return rows.map((row) => row.id);
}

/** How many reviews were submitted on each of these issues (Forgejo's `review_comments`: review entries). */
export async function submittedReviewCounts(
  db: Db,
  issueIds: readonly number[],
): Promise<Map<number, number>> {
  if (issueIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("comment")
    .select(["issueId", sql<number>`count(*)`.as("count")])
    .where("issueId", "in", [...issueIds])
    .where("type", "=", REVIEW_ENTRY)
    .groupBy("issueId")
    .execute();
  return new Map(rows.map((row) => [row.issueId, Number(row.count)]));
}

/** The teams asked to review the pull request (their request still open), in the order asked. */
export async function requestedTeamIds(db: Db, issueId: number): Promise<number[]> {
  const rows = await db
    .selectFrom("review")
    .select("reviewerTeamId")
    .where("issueId", "=", issueId)
    .where("reviewerTeamId", "is not", null)
    .where("type", "=", ReviewType.request)
    .orderBy("id")
    .execute();
  return [...new Set(rows.map((row) => row.reviewerTeamId as number))];
}
