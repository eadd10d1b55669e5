import type { Issue } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";

export const ISSUE_COLUMNS = [
  "issue.id",
  "issue.repoId",
  "issue.index",
  "issue.posterId",
  "issue.title",
  "issue.content",
  "issue.milestoneId",
  "issue.isClosed",
  "issue.isPull",
  "issue.isLocked",
  "issue.ref",
  "issue.pinOrder",
  "issue.numComments",
  "issue.deadline",
  "issue.closedAt",
  "issue.createdAt",
  "issue.updatedAt",
] as const;

export interface NewIssue {
  readonly repoId: number;
  readonly posterId: number;
  readonly title: string;
  readonly content: string;
  readonly ref: string;
  readonly milestoneId: number | null;
  readonly deadline: Date | null;
  readonly isPull: boolean;
}

/** The columns an issue edit may change. */
export interface IssueChanges {
  readonly title?: string;
  readonly content?: string;
  readonly ref?: string;
  readonly milestoneId?: number | null;
  readonly deadline?: Date | null;
  readonly isClosed?: boolean;
  readonly closedAt?: Date | null;
  readonly isLocked?: boolean;
  readonly pinOrder?: number;
  readonly updatedAt?: Date;
}

/**
 * The next number of a repository's issues and pull requests: one counter row per repository,
 * incremented under its row lock, so concurrent creations never share a number.
 */
export async function nextIssueIndex(db: Db, repoId: number): Promise<number> {
  const row = await db
    .insertInto("issueIndex")
    .values({ repoId, maxIndex: 1 })
    .onConflict((oc) => oc.column("repoId").doUpdateSet({ maxIndex: sql`issue_index.max_index + 1` }))
    .returning("maxIndex")
    .executeTakeFirstOrThrow();
  return Number(row.maxIndex);
}

export async function insertIssue(db: Db, issue: NewIssue, index: number, at: Date): Promise<Issue> {
  const { id } = await db
    .insertInto("issue")
    .values({ ...issue, index, createdAt: at, updatedAt: at })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await findIssueById(db, id)) as Issue;
}

export async function findIssueById(db: Db, id: number): Promise<Issue | undefined> {
  return db.selectFrom("issue").select(ISSUE_COLUMNS).where("issue.id", "=", id).executeTakeFirst();
}

/** The issue or pull request with this number in the repository. */
export async function findIssueByIndex(db: Db, repoId: number, index: number): Promise<Issue | undefined> {
  return db
    .selectFrom("issue")
    .select(ISSUE_COLUMNS)
    .where("issue.repoId", "=", repoId)
    .where("issue.index", "=", index)
    .executeTakeFirst();
}

/** Issues by id, in the order given (rows that no longer exist are left out). */
export async function issuesByIds(db: Db, ids: readonly number[]): Promise<Issue[]> {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom("issue")
    .select(ISSUE_COLUMNS)
    .where("issue.id", "in", [...ids])
    .execute();
  const byId = new Map<number, Issue>(rows.map((row) => [row.id, row]));
  return ids.map((id) => byId.get(id)).filter((issue): issue is Issue => issue !== undefined);
}

export async function updateIssue(db: Db, id: number, changes: IssueChanges): Promise<void> {
  await db
    .updateTable("issue")
    .set({ updatedAt: new Date(), ...changes })
    .where("id", "=", id)
    .execute();
}

export async function deleteIssue(db: Db, id: number): Promise<void> {
  await db.deleteFrom("issue").where("id", "=", id).execute();
}

/** Recounts a repository's issues and pull requests, open and closed (in the transaction of the change). */
export async function recountRepoIssues(db: Db, repoId: number): Promise<void> {
  const count = (pull: boolean, closed: boolean | undefined) =>
    sql<number>`(select count(*) from issue where issue.repo_id = repository.id and issue.is_pull = ${pull}
      ${closed === undefined ? sql`` : sql`and issue.is_closed = ${closed}`})`;
  await db
    .updateTable("repository")
    .set({
      numIssues: count(false, undefined),
      numClosedIssues: count(false, true),
      numPulls: count(true, undefined),
      numClosedPulls: count(true, true),
    })
    .where("id", "=", repoId)
    .execute();
}

/** Recounts an issue's comments: plain comments and reviews (Forgejo's num_comments). */
export async function recountComments(db: Db, issueId: number): Promise<void> {
  await db
    .updateTable("issue")
    .set({
      numComments: sql`(select count(*) from comment where comment.issue_id = issue.id and comment.type in (0, 22))`,
    })
    .where("id", "=", issueId)
    .execute();
}

// ---- labels of an issue ----

export async function issueLabelIds(db: Db, issueId: number): Promise<number[]> {
  const rows = await db.selectFrom("issueLabel").select("labelId").where("issueId", "=", issueId).execute();
  return rows.map((row) => row.labelId);
}

export async function addIssueLabels(db: Db, issueId: number, labelIds: readonly number[]): Promise<void> {
  if (labelIds.length === 0) return;
  await db
    .insertInto("issueLabel")
    .values(labelIds.map((labelId) => ({ issueId, labelId })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeIssueLabels(db: Db, issueId: number, labelIds: readonly number[]): Promise<void> {
  if (labelIds.length === 0) return;
  await db
    .deleteFrom("issueLabel")
    .where("issueId", "=", issueId)
    .where("labelId", "in", [...labelIds])
    .execute();
}

// ---- assignees ----

/** The assignees of each issue, by issue id, in the order they were assigned (one query for all). */
export async function assigneesOfIssues(db: Db, issueIds: readonly number[]): Promise<Map<number, number[]>> {
  const byIssue = new Map<number, number[]>();
  if (issueIds.length === 0) return byIssue;
  const rows = await db
    .selectFrom("issueAssignees")
    .select(["issueId", "assigneeId"])
    .where("issueId", "in", [...issueIds])
    .orderBy("createdAt")
    .orderBy("assigneeId")
    .execute();
  for (const row of rows) {
    const list = byIssue.get(row.issueId) ?? [];
    list.push(row.assigneeId);
    byIssue.set(row.issueId, list);
  }
  return byIssue;
}

export async function addAssignees(db: Db, issueId: number, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto("issueAssignees")
    .values(userIds.map((assigneeId) => ({ issueId, assigneeId })))
    .onConflict((oc) => oc.doNothing())
    .execute();
}

export async function removeAssignees(db: Db, issueId: number, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .deleteFrom("issueAssignees")
    .where("issueId", "=", issueId)
    .where("assigneeId", "in", [...userIds])
    .execute();
}

/** Records users @-mentioned in an issue or its comments (for `mentioned_by`). */
export async function markMentioned(db: Db, issueId: number, userIds: readonly number[]): Promise<void> {
  if (userIds.length === 0) return;
  await db
    .insertInto("issueUser")
    .values(userIds.map((userId) => ({ issueId, userId, isMentioned: true })))
    .onConflict((oc) => oc.columns(["issueId", "userId"]).doUpdateSet({ isMentioned: true }))
    .execute();
}
