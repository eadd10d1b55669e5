import type { PullRequest, PullStatusValue } from "@kiln/domain";
import { sql } from "kysely";
import type { Db } from "../database.js";

const PULL_COLUMNS = [
  "pullRequest.id",
  "pullRequest.issueId",
  "pullRequest.index",
  "pullRequest.baseRepoId",
  "pullRequest.headRepoId",
  "pullRequest.baseBranch",
  "pullRequest.headBranch",
  "pullRequest.mergeBase",
  "pullRequest.headCommitId",
  "pullRequest.baseCommitId",
  "pullRequest.status",
  "pullRequest.conflictedFiles",
  "pullRequest.changedProtectedFiles",
  "pullRequest.commitsAhead",
  "pullRequest.commitsBehind",
  "pullRequest.additions",
  "pullRequest.deletions",
  "pullRequest.changedFiles",
  "pullRequest.allowMaintainerEdit",
  "pullRequest.hasMerged",
  "pullRequest.mergedCommitId",
  "pullRequest.mergerId",
  "pullRequest.mergedAt",
] as const;

type Row = Omit<PullRequest, "status"> & { status: number };

function toPull(row: Row): PullRequest {
  return { ...row, status: row.status as PullStatusValue };
}

/** What is known about merging a pull request's head into its base, as a check computed it. */
export interface PullState {
  readonly mergeBase: string;
  readonly headCommitId: string;
  readonly baseCommitId: string;
  readonly status: PullStatusValue;
  readonly conflictedFiles: readonly string[];
  readonly changedProtectedFiles: readonly string[];
  readonly commitsAhead: number;
  readonly commitsBehind: number;
  readonly additions: number;
  readonly deletions: number;
  readonly changedFiles: number;
}

/** A new pull request of an issue. */
export interface NewPull {
  readonly issueId: number;
  readonly index: number;
  readonly baseRepoId: number;
  readonly headRepoId: number;
  readonly baseBranch: string;
  readonly headBranch: string;
  readonly allowMaintainerEdit: boolean;
}

function stateValues(state: PullState) {
  return {
    ...state,
    conflictedFiles: JSON.stringify(state.conflictedFiles),
    changedProtectedFiles: JSON.stringify(state.changedProtectedFiles),
  };
}

export async function insertPull(db: Db, pull: NewPull, state: PullState): Promise<PullRequest> {
  const { id } = await db
    .insertInto("pullRequest")
    .values({ ...pull, ...stateValues(state) })
    .returning("id")
    .executeTakeFirstOrThrow();
  return (await findPullById(db, id)) as PullRequest;
}

export async function findPullById(db: Db, id: number): Promise<PullRequest | undefined> {
  const row = await db.selectFrom("pullRequest").select(PULL_COLUMNS).where("id", "=", id).executeTakeFirst();
  return row && toPull(row);
}

/** The pull request with this number in its base repository. */
export async function findPullByIndex(
  db: Db,
  baseRepoId: number,
  index: number,
): Promise<PullRequest | undefined> {
  const row = await db
    .selectFrom("pullRequest")
    .select(PULL_COLUMNS)
    .where("baseRepoId", "=", baseRepoId)
    .where("index", "=", index)
    .executeTakeFirst();
  return row && toPull(row);
}

/** The pull requests of these issues (those that are pull requests). */
export async function findPullsByIssueIds(db: Db, issueIds: readonly number[]): Promise<PullRequest[]> {
  if (issueIds.length === 0) return [];
  const rows = await db
    .selectFrom("pullRequest")
    .select(PULL_COLUMNS)
    .where("issueId", "in", [...issueIds])
    .execute();
  return rows.map(toPull);
}

/** A head and base pair of branches. */
export interface BranchPair {
  readonly baseRepoId: number;
  readonly baseBranch: string;
  readonly headRepoId: number;
  readonly headBranch: string;
}

/** The open, unmerged pull request from this head to this base, if there is one (Forgejo allows one). */
export async function findOpenPullFor(db: Db, pair: BranchPair): Promise<PullRequest | undefined> {
  const row = await db
    .selectFrom("pullRequest")
    .innerJoin("issue", "issue.id", "pullRequest.issueId")
    .select(PULL_COLUMNS)
    .where("pullRequest.baseRepoId", "=", pair.baseRepoId)
    .where("pullRequest.baseBranch", "=", pair.baseBranch)
    .where("pullRequest.headRepoId", "=", pair.headRepoId)
    .where("pullRequest.headBranch", "=", pair.headBranch)
    .where("pullRequest.hasMerged", "=", false)
    .where("issue.isClosed", "=", false)
    .executeTakeFirst();
  return row && toPull(row);
}

/** The newest pull request, in any state, from this head to this base. */
export async function findPullFor(db: Db, pair: BranchPair): Promise<PullRequest | undefined> {
  const row = await db
    .selectFrom("pullRequest")
    .select(PULL_COLUMNS)
    .where("baseRepoId", "=", pair.baseRepoId)
    .where("baseBranch", "=", pair.baseBranch)
    .where("headRepoId", "=", pair.headRepoId)
    .where("headBranch", "=", pair.headBranch)
    .orderBy("id", "desc")
    .executeTakeFirst();
  return row && toPull(row);
}

/**
 * The open pull requests of a repository that have one of these branches as their head (in
 * `headRepoId`) or as their base (in `baseRepoId`): what a push to those branches concerns.
 */
export async function findOpenPullsTouching(
  db: Db,
  repoId: number,
  branches: readonly string[],
): Promise<PullRequest[]> {
  if (branches.length === 0) return [];
  const names = [...branches];
  const rows = await db
    .selectFrom("pullRequest")
    .innerJoin("issue", "issue.id", "pullRequest.issueId")
    .select(PULL_COLUMNS)
    .where("pullRequest.hasMerged", "=", false)
    .where("issue.isClosed", "=", false)
    .where((eb) =>
      eb.or([
        eb.and([eb("pullRequest.headRepoId", "=", repoId), eb("pullRequest.headBranch", "in", names)]),
        eb.and([eb("pullRequest.baseRepoId", "=", repoId), eb("pullRequest.baseBranch", "in", names)]),
      ]),
    )
    .orderBy("pullRequest.id")
    .execute();
  return rows.map(toPull);
}

/**
 * Records a check's result if the pull request still has the state it was computed from (its
 * head and base commits as read before), and was not merged meanwhile: false when another check
 * got there first, whose result then stands.
 */
export async function saveState(
  db: Db,
  id: number,
  state: PullState,
  from: { readonly headCommitId: string; readonly baseCommitId: string },
): Promise<boolean> {
  const result = await db
    .updateTable("pullRequest")
    .set(stateValues(state))
    .where("id", "=", id)
    .where("hasMerged", "=", false)
    .where("headCommitId", "=", from.headCommitId)
    .where("baseCommitId", "=", from.baseCommitId)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) > 0;
}

/** The columns an edit may change. */
export interface PullChanges {
  readonly baseBranch?: string;
  readonly allowMaintainerEdit?: boolean;
  /** Marks it merged (the state at the merge is kept with it). */
  readonly merged?: {
    readonly commitId: string;
    readonly mergerId: number;
    readonly at: Date;
    readonly status?: PullStatusValue;
  };
}

export async function updatePull(db: Db, id: number, changes: PullChanges): Promise<void> {
  const { merged, ...rest } = changes;
  await db
    .updateTable("pullRequest")
    .set({
      ...rest,
      ...(merged
        ? {
            hasMerged: true,
            mergedCommitId: merged.commitId,
            mergerId: merged.mergerId,
            mergedAt: merged.at,
            conflictedFiles: "[]",
            ...(merged.status !== undefined ? { status: merged.status } : {}),
          }
        : {}),
    })
    .where("id", "=", id)
    .execute();
}

/** Whether another open pull request uses this head branch (its deletion after a merge must wait). */
export async function otherOpenPullsWithHead(
  db: Db,
  headRepoId: number,
  headBranch: string,
  exceptId: number,
): Promise<boolean> {
  const row = await db
    .selectFrom("pullRequest")
    .innerJoin("issue", "issue.id", "pullRequest.issueId")
    .select(sql<number>`1`.as("one"))
    .where("pullRequest.headRepoId", "=", headRepoId)
    .where("pullRequest.headBranch", "=", headBranch)
    .where("pullRequest.id", "<>", exceptId)
    .where("pullRequest.hasMerged", "=", false)
    .where("issue.isClosed", "=", false)
    .executeTakeFirst();
  return row !== undefined;
}

/** Open pull requests whose base is this branch (retargeted when the branch is deleted after a merge). */
export async function openPullsWithBase(
  db: Db,
  baseRepoId: number,
  baseBranch: string,
): Promise<PullRequest[]> {
  const rows = await db
    .selectFrom("pullRequest")
    .innerJoin("issue", "issue.id", "pullRequest.issueId")
    .select(PULL_COLUMNS)
    .where("pullRequest.baseRepoId", "=", baseRepoId)
    .where("pullRequest.baseBranch", "=", baseBranch)
    .where("pullRequest.hasMerged", "=", false)
    .where("issue.isClosed", "=", false)
    .execute();
  return rows.map(toPull);
}

/** The pull request whose merge commit this is, in the repository. */
export async function findPullByMergedCommit(
  db: Db,
  baseRepoId: number,
  commitId: string,
): Promise<PullRequest | undefined> {
  const row = await db
    .selectFrom("pullRequest")
    .select(PULL_COLUMNS)
    .where("baseRepoId", "=", baseRepoId)
    .where("mergedCommitId", "=", commitId)
    .where("hasMerged", "=", true)
    .executeTakeFirst();
  return row && toPull(row);
}

/** The open pull requests of a base repository with a merge scheduled and this head commit. */
export async function scheduledPullsWithHead(
  db: Db,
  baseRepoId: number,
  headCommitId: string,
): Promise<PullRequest[]> {
  const rows = await db
    .selectFrom("pullRequest")
    .innerJoin("pullAutoMerge", "pullAutoMerge.pullId", "pullRequest.id")
    .innerJoin("issue", "issue.id", "pullRequest.issueId")
    .select(PULL_COLUMNS)
    .where("pullRequest.baseRepoId", "=", baseRepoId)
    .where("pullRequest.headCommitId", "=", headCommitId)
    .where("pullRequest.hasMerged", "=", false)
    .where("issue.isClosed", "=", false)
    .orderBy("pullRequest.id")
    .limit(100)
    .execute();
  return rows.map(toPull);
}

/**
 * The open pull requests whose head is in this repository and whose base is in another (a fork's
 * pull requests), oldest first, at most `limit`; with `allowingEdits`, only those whose poster
 * allows maintainers' edits.
 */
export async function openPullsFromHead(
  db: Db,
  headRepoId: number,
  options: { readonly allowingEdits?: boolean; readonly limit: number },
): Promise<PullRequest[]> {
  const rows = await db
    .selectFrom("pullRequest")
    .innerJoin("issue", "issue.id", "pullRequest.issueId")
    .select(PULL_COLUMNS)
    .where("pullRequest.headRepoId", "=", headRepoId)
    .where("pullRequest.baseRepoId", "<>", headRepoId)
    .$if(options.allowingEdits === true, (qb) => qb.where("pullRequest.allowMaintainerEdit", "=", true))
    .where("pullRequest.hasMerged", "=", false)
    .where("issue.isClosed", "=", false)
    .orderBy("pullRequest.id")
    .limit(options.limit)
    .execute();
  return rows.map(toPull);
}

/** A scheduled merge (`merge_when_checks_succeed`). */
export interface AutoMerge {
  readonly pullId: number;
  readonly doerId: number;
  readonly mergeStyle: string;
  readonly message: string;
  readonly deleteBranchAfterMerge: boolean;
}

export async function findAutoMerge(db: Db, pullId: number): Promise<AutoMerge | undefined> {
  return db
    .selectFrom("pullAutoMerge")
    .select(["pullId", "doerId", "mergeStyle", "message", "deleteBranchAfterMerge"])
    .where("pullId", "=", pullId)
    .executeTakeFirst();
}

/** Schedules a merge; false when one is scheduled already. */
export async function insertAutoMerge(db: Db, merge: AutoMerge, at: Date): Promise<boolean> {
  const result = await db
    .insertInto("pullAutoMerge")
    .values({ ...merge, createdAt: at })
    .onConflict((oc) => oc.column("pullId").doNothing())
    .executeTakeFirst();
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0;
}

export async function deleteAutoMerge(db: Db, pullId: number): Promise<boolean> {
  const result = await db.deleteFrom("pullAutoMerge").where("pullId", "=", pullId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
