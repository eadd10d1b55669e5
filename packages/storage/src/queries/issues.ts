import type { Issue, RepoUnit } from "@kiln/domain";
import { type Expression, type ExpressionBuilder, type SqlBool, sql } from "kysely";
import type { Database, Db } from "../database.js";
import { collaborates, type RepoViewer, repoVisibleTo } from "./repo-visibility.js";

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

type RepoExpressions = ExpressionBuilder<Database, "repository">;

/** Team modes that read a unit (a team of `admin` or `owner` mode reads every unit). */
const READING_MODES = ["read", "write", "admin", "owner"];

/**
 * SQL for "the viewer may read this unit of the repository", over a `repository` row, as the
 * access module's permission decides it (computeRepoPermission): the repository must be visible
 * ({@link repoVisibleTo}); then site admins, its owner, its collaborators, and on a public
 * repository everyone but restricted users, read every unit; through a team of the owning
 * organization that covers the repository, only the units the team reads (every unit for an
 * admin or owner team). A team member with only the code unit does not read its issues.
 */
export function unitReadableBy(
  viewer: RepoViewer,
  unit: RepoUnit,
): (eb: RepoExpressions) => Expression<SqlBool> {
  return (eb) => {
    const visible = repoVisibleTo(viewer)(eb);
    // Anonymous callers see public repositories only, site admins everything: every unit of them.
    if (!viewer || viewer.isAdmin) return visible;
    const team = eb.exists(
      eb
        .selectFrom("teamUser")
        .innerJoin("team", "team.id", "teamUser.teamId")
        .select("team.id")
        .whereRef("team.orgId", "=", "repository.ownerId")
        .where("teamUser.userId", "=", viewer.id)
        .where((t) =>
          t.or([
            t("team.accessMode", "in", ["admin", "owner"]),
            t(sql<string>`team.units ->> ${unit}`, "in", READING_MODES),
          ]),
        )
        .where((t) =>
          t.or([
            t("team.includesAllRepositories", "=", true),
            t.exists(
              t
                .selectFrom("teamRepo")
                .select("teamRepo.id")
                .whereRef("teamRepo.teamId", "=", "team.id")
                .whereRef("teamRepo.repoId", "=", "repository.id"),
            ),
          ]),
        ),
    );
    return eb.and([
      visible,
      eb.or([
        eb("repository.ownerId", "=", viewer.id),
        ...(viewer.isRestricted ? [] : [eb("repository.isPrivate", "=", false)]),
        collaborates(eb, viewer.id),
        team,
      ]),
    ]);
  };
}

/**
 * SQL for "the viewer may read this issue", over an `issue` row: the issues unit of its
 * repository for an issue, the pull requests unit for a pull request (Forgejo's
 * CanReadIssuesOrPulls), the per-repository rule of {@link unitReadableBy}. `isPull`, when the
 * query already narrows to one kind, leaves out the other kind's test.
 */
export function issueReadableBy(
  viewer: RepoViewer,
  isPull?: boolean,
): (eb: ExpressionBuilder<Database, "issue">) => Expression<SqlBool> {
  return (eb) => {
    const repos = (unit: RepoUnit) =>
      eb.selectFrom("repository").select("repository.id").where(unitReadableBy(viewer, unit));
    if (!viewer || viewer.isAdmin) return eb("issue.repoId", "in", repos("repo.issues"));
    const issues = eb.and([eb("issue.isPull", "=", false), eb("issue.repoId", "in", repos("repo.issues"))]);
    const pulls = eb.and([eb("issue.isPull", "=", true), eb("issue.repoId", "in", repos("repo.pulls"))]);
    if (isPull === false) return issues;
    if (isPull === true) return pulls;
    return eb.or([issues, pulls]);
  };
}
