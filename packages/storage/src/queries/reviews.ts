import {
  CommentType,
  type Paged,
  type PageRequest,
  type Review,
  ReviewType,
  type ReviewTypeValue,
} from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";
import { pageOf } from "./paging.js";

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
  return (await latestDecidingReviewsOf(db, [issueId])).get(issueId) ?? [];
}

/** {@link latestDecidingReviews} of several pull requests in one query, by issue id. */
export async function latestDecidingReviewsOf(
  db: Db,
  issueIds: readonly number[],
): Promise<Map<number, Review[]>> {
  const out = new Map<number, Review[]>();
  if (issueIds.length === 0) return out;
  const rows = await db
    .selectFrom("review")
    .select(REVIEW_COLUMNS)
    .where("review.id", "in", (eb) =>
      eb
        .selectFrom("review as r")
        .select(sql<number>`max(r.id)`.as("id"))
        .where("r.issueId", "in", [...issueIds])
        .where("r.reviewerId", "is not", null)
        .where("r.type", "in", [ReviewType.approve, ReviewType.requestChanges, ReviewType.request])
        .where("r.dismissed", "=", false)
        .groupBy(["r.issueId", "r.reviewerId"]),
    )
    .orderBy("review.updatedAt")
    .orderBy("review.id")
    .execute();
  for (const row of rows) {
    const list = out.get(row.issueId) ?? [];
    list.push(toReview(row));
    out.set(row.issueId, list);
  }
  return out;
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
 * After the head moved (Forgejo's ValidatePullRequest): reviews of the new head are fresh; when
 * the pull request's content changed, reviews of other commits become stale, and with
 * `dismissApprovals` (the rule's dismiss_stale_approvals) its approvals not yet dismissed are
 * dismissed, whose ids are returned.
 */
export async function headMoved(
  db: Db,
  issueId: number,
  headSha: string,
  change: { readonly contentChanged: boolean; readonly dismissApprovals: boolean },
): Promise<number[]> {
  const decisions = [ReviewType.approve, ReviewType.requestChanges, ReviewType.comment];
  await db
    .updateTable("review")
    .set({ stale: false })
    .where("issueId", "=", issueId)
    .where("type", "in", decisions)
    .where("commitId", "=", headSha)
    .execute();
  if (!change.contentChanged) return [];
  await db
    .updateTable("review")
    .set({ stale: true })
    .where("issueId", "=", issueId)
    .where("type", "in", decisions)
    .where("commitId", "<>", headSha)
    .execute();
  if (!change.dismissApprovals) return [];
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
  return (await requestedTeamIdsOf(db, [issueId])).get(issueId) ?? [];
}

/** {@link requestedTeamIds} of several pull requests in one query, by issue id. */
export async function requestedTeamIdsOf(
  db: Db,
  issueIds: readonly number[],
): Promise<Map<number, number[]>> {
  const out = new Map<number, number[]>();
  if (issueIds.length === 0) return out;
  const rows = await db
    .selectFrom("review")
    .select(["issueId", "reviewerTeamId"])
    .where("issueId", "in", [...issueIds])
    .where("reviewerTeamId", "is not", null)
    .where("type", "=", ReviewType.request)
    .orderBy("id")
    .execute();
  for (const row of rows) {
    const list = out.get(row.issueId) ?? [];
    if (!list.includes(row.reviewerTeamId as number)) list.push(row.reviewerTeamId as number);
    out.set(row.issueId, list);
  }
  return out;
}

// ---- reviews of the API ----

/** Who lists reviews: pending ones show only to their reviewer and to site admins. */
export interface ReviewReader {
  readonly id: number;
  readonly isAdmin: boolean;
}

/**
 * A page of a pull request's reviews and review requests, oldest first (Forgejo's FindReviews),
 * with their total. Pending reviews of others are neither shown nor counted.
 */
export async function listReviews(
  db: Db,
  issueId: number,
  reader: ReviewReader | null,
  page: PageRequest,
): Promise<Paged<Review>> {
  let base = db.selectFrom("review").where("review.issueId", "=", issueId);
  if (!reader?.isAdmin) {
    base = base.where((eb) =>
      reader
        ? eb.or([eb("review.type", "!=", ReviewType.pending), eb("review.reviewerId", "=", reader.id)])
        : eb("review.type", "!=", ReviewType.pending),
    );
  }
  const list = await pageOf(
    base,
    (q) => q.select(REVIEW_COLUMNS).orderBy("review.createdAt").orderBy("review.id"),
    page,
  );
  return { items: list.items.map(toReview), total: list.total };
}

/** The reviewer's pending review of the pull request (Forgejo's GetCurrentReview), if any. */
export async function findPendingReview(
  db: Db,
  issueId: number,
  reviewerId: number,
): Promise<Review | undefined> {
  const row = await db
    .selectFrom("review")
    .select(REVIEW_COLUMNS)
    .where("issueId", "=", issueId)
    .where("reviewerId", "=", reviewerId)
    .where("type", "=", ReviewType.pending)
    .orderBy("id")
    .executeTakeFirst();
  return row && toReview(row);
}

/** What submitting a review changes. */
export interface ReviewChanges {
  readonly type?: ReviewTypeValue;
  readonly content?: string;
  readonly official?: boolean;
  readonly commitId?: string;
  readonly stale?: boolean;
  readonly dismissed?: boolean;
}

export async function updateReview(db: Db, id: number, changes: ReviewChanges, at: Date): Promise<void> {
  await db
    .updateTable("review")
    .set({ ...changes, updatedAt: at })
    .where("id", "=", id)
    .execute();
}

/** Only a reviewer's latest decision is official: clears `official` on all their reviews of the pull request. */
export async function clearOfficial(db: Db, issueId: number, reviewerId: number): Promise<void> {
  await db
    .updateTable("review")
    .set({ official: false })
    .where("issueId", "=", issueId)
    .where("reviewerId", "=", reviewerId)
    .execute();
}

/** A new decision supersedes the reviewer's earlier approvals and requests for changes: they are dismissed. */
export async function dismissEarlierDecisions(db: Db, issueId: number, reviewerId: number): Promise<void> {
  await db
    .updateTable("review")
    .set({ dismissed: true })
    .where("issueId", "=", issueId)
    .where("reviewerId", "=", reviewerId)
    .where("type", "in", [ReviewType.approve, ReviewType.requestChanges])
    .execute();
}

/** Removes the requests for the user's review (answered by a review); how many there were. */
export async function deleteUserRequests(db: Db, issueId: number, reviewerId: number): Promise<number> {
  const result = await db
    .deleteFrom("review")
    .where("issueId", "=", issueId)
    .where("reviewerId", "=", reviewerId)
    .where("type", "=", ReviewType.request)
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** Removes the review requests of these teams. */
export async function deleteTeamRequests(db: Db, issueId: number, teamIds: readonly number[]): Promise<void> {
  if (teamIds.length === 0) return;
  await db
    .deleteFrom("review")
    .where("issueId", "=", issueId)
    .where("reviewerTeamId", "in", [...teamIds])
    .where("type", "=", ReviewType.request)
    .execute();
}

/**
 * The user's latest approval, request for changes or review request on the pull request,
 * dismissed or not (Forgejo's GetReviewByIssueIDAndUserID).
 */
export async function latestDecisionOf(
  db: Db,
  issueId: number,
  reviewerId: number,
): Promise<Review | undefined> {
  const row = await db
    .selectFrom("review")
    .select(REVIEW_COLUMNS)
    .where("issueId", "=", issueId)
    .where("reviewerId", "=", reviewerId)
    .where("type", "in", [ReviewType.approve, ReviewType.requestChanges, ReviewType.request])
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row && toReview(row);
}

/** The team's open review request on the pull request, if any. */
export async function findTeamRequest(db: Db, issueId: number, teamId: number): Promise<Review | undefined> {
  const row = await db
    .selectFrom("review")
    .select(REVIEW_COLUMNS)
    .where("issueId", "=", issueId)
    .where("reviewerTeamId", "=", teamId)
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row && toReview(row);
}

/** Makes the reviewer's latest decision official again (after their request was withdrawn or a review deleted). */
export async function restoreOfficial(db: Db, issueId: number, reviewerId: number): Promise<void> {
  const latest = await latestDecisionOf(db, issueId, reviewerId);
  if (latest) await db.updateTable("review").set({ official: true }).where("id", "=", latest.id).execute();
}

/** Sets `dismissed` on reviews (only approvals and requests for changes can be dismissed). */
export async function setDismissed(db: Db, ids: readonly number[], dismissed: boolean): Promise<void> {
  if (ids.length === 0) return;
  await db
    .updateTable("review")
    .set({ dismissed })
    .where("id", "in", [...ids])
    .where("type", "in", [ReviewType.approve, ReviewType.requestChanges])
    .execute();
}

/** The reviewer's other reviews of the pull request that are not dismissed. */
export async function undismissedOf(
  db: Db,
  issueId: number,
  reviewerId: number,
  exceptId: number,
): Promise<number[]> {
  const rows = await db
    .selectFrom("review")
    .select("id")
    .where("issueId", "=", issueId)
    .where("reviewerId", "=", reviewerId)
    .where("dismissed", "=", false)
    .where("id", "!=", exceptId)
    .execute();
  return rows.map((row) => row.id);
}

/**
 * Deletes a review with its line comments, its timeline entry and its dismissal entries (they
 * refer to it and go with it).
 */
export async function deleteReview(db: Db, id: number): Promise<void> {
  await db.deleteFrom("review").where("id", "=", id).execute();
}

// ---- line comments ----

/** A line comment of a review (a comment of type `code`). */
export interface CodeComment {
  readonly id: number;
  readonly issueId: number;
  readonly posterId: number | null;
  readonly reviewId: number | null;
  readonly content: string;
  readonly treePath: string;
  /** Positive on the new side, negative on the old side. */
  readonly line: number;
  readonly commitSha: string;
  readonly oldRef: string;
  /** The diff around the line, with the file's headers (Forgejo's stored patch). */
  readonly patch: string;
  readonly invalidated: boolean;
  readonly resolveDoerId: number | null;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

const CODE_COMMENT_COLUMNS = [
  "comment.id",
  "comment.issueId",
  "comment.posterId",
  "comment.reviewId",
  "comment.content",
  "comment.treePath",
  "comment.line",
  "comment.commitSha",
  "comment.oldRef",
  "comment.patch",
  "comment.invalidated",
  "comment.resolveDoerId",
  "comment.createdAt",
  "comment.updatedAt",
] as const;

/** A new line comment of a review. */
export interface NewCodeComment {
  readonly issueId: number;
  readonly reviewId: number;
  readonly posterId: number;
  readonly content: string;
  readonly treePath: string;
  readonly line: number;
  readonly commitSha: string;
  readonly patch: string;
}

export async function insertCodeComment(db: Db, comment: NewCodeComment, at: Date): Promise<CodeComment> {
  const { id } = await db
    .insertInto("comment")
    .values({ ...comment, type: CommentType.code, createdAt: at, updatedAt: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await findCodeComment(db, id)) as CodeComment;
}

/** A line comment by id (undefined for any other kind of comment). */
export async function findCodeComment(db: Db, id: number): Promise<CodeComment | undefined> {
  return db
    .selectFrom("comment")
    .select(CODE_COMMENT_COLUMNS)
    .where("comment.id", "=", id)
    .where("comment.type", "=", CommentType.code)
    .executeTakeFirst();
}

/**
 * The stored diff of an earlier comment of the review on the same line (Forgejo reuses it so a
 * conversation shows one hunk), or undefined.
 */
export async function patchOfLine(
  db: Db,
  reviewId: number,
  treePath: string,
  line: number,
): Promise<{ patch: string; commitSha: string } | undefined> {
  return db
    .selectFrom("comment")
    .select(["comment.patch", "comment.commitSha"])
    .where("comment.reviewId", "=", reviewId)
    .where("comment.type", "=", CommentType.code)
    .where("comment.treePath", "=", treePath)
    .where("comment.line", "=", line)
    .orderBy("comment.id")
    .executeTakeFirst();
}

/** A page of a review's line comments, in the order they were made, with their total. */
export async function listCodeComments(
  db: Db,
  reviewId: number,
  page: PageRequest,
): Promise<Paged<CodeComment>> {
  const base = db
    .selectFrom("comment")
    .where("comment.reviewId", "=", reviewId)
    .where("comment.type", "=", CommentType.code);
  return pageOf(base, (q) => q.select(CODE_COMMENT_COLUMNS).orderBy("comment.id"), page);
}

/** How many line comments each of these reviews has (Forgejo's `comments_count`). */
export async function codeCommentCounts(db: Db, reviewIds: readonly number[]): Promise<Map<number, number>> {
  if (reviewIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("comment")
    .select(["comment.reviewId", sql<number>`count(*)`.as("count")])
    .where("comment.reviewId", "in", [...reviewIds])
    .where("comment.type", "=", CommentType.code)
    .groupBy("comment.reviewId")
    .execute();
  return new Map(rows.map((row) => [row.reviewId as number, Number(row.count)]));
}

/** The timeline entry each of these reviews added when it was submitted (its `html_url` points there). */
export async function reviewEntryIds(db: Db, reviewIds: readonly number[]): Promise<Map<number, number>> {
  if (reviewIds.length === 0) return new Map();
  const rows = await db
    .selectFrom("comment")
    .select(["comment.reviewId", sql<number>`min(comment.id)`.as("id")])
    .where("comment.reviewId", "in", [...reviewIds])
    .where("comment.type", "=", REVIEW_ENTRY)
    .groupBy("comment.reviewId")
    .execute();
  return new Map(rows.map((row) => [row.reviewId as number, Number(row.id)]));
}

export async function deleteCodeComment(db: Db, id: number): Promise<void> {
  await db.deleteFrom("comment").where("id", "=", id).where("type", "=", CommentType.code).execute();
}

/**
 * Notifies these users of a change of the pull request (a review request tells the reviewer
 * only), in the change's transaction: one notification per user and issue, brought back to
 * unread. Neither the actor nor anyone who blocks the actor is notified.
 */
export async function notifyUsers(
  db: Db,
  change: {
    readonly issueId: number;
    readonly repoId: number;
    readonly actorId: number;
    readonly commentId: number | null;
    readonly at: Date;
  },
  userIds: readonly number[],
): Promise<void> {
  const recipients = [...new Set(userIds)].filter((id) => id !== change.actorId);
  if (recipients.length === 0) return;
  const { issueId, repoId, actorId, commentId, at } = change;
  await sql`
    insert into notification (user_id, repo_id, status, source, issue_id, comment_id, updated_by, created_at, updated_at)
    select recipient.id, ${repoId}, 1, 2, ${issueId}, ${commentId}, ${actorId}, ${at}, ${at}
    from users as recipient
    where recipient.id in (${sql.join(recipients)})
      and not exists (select 1 from blocked_user where blocked_user.user_id = recipient.id
        and blocked_user.block_id = ${actorId})
    on conflict (user_id, issue_id) where issue_id is not null do update
      set status = 1, comment_id = excluded.comment_id, updated_by = excluded.updated_by,
          updated_at = excluded.updated_at`.execute(db);
}

/** The members of a team (who a review request to the team notifies). */
export async function teamMemberIds(db: Db, teamId: number): Promise<number[]> {
  const rows = await db.selectFrom("teamUser").select("userId").where("teamId", "=", teamId).execute();
  return rows.map((row) => row.userId);
}
