import {
  CommentType,
  InvalidArgumentError,
  type Issue,
  type Label,
  type Milestone,
  PermissionDeniedError,
  type Repository,
  type User,
} from "@kiln/domain";
import { comments, type Db, issues, labels, milestones, notifications, users } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import type { PermissionService } from "../permissions/permission-service.js";
import { canRead, canWrite, isRepoAdmin } from "../permissions/repo-permission.js";
import { limitTitle } from "./issue-rules.js";

/**
 * The users named as assignees (`assignee` joined to `assignees`), each of whom may be assigned:
 * write access to any unit or read access to pull requests (Forgejo's CanBeAssigned); 422 with
 * Forgejo's messages otherwise.
 */
export async function resolveAssignees(
  db: Db,
  permissions: PermissionService,
  repo: Repository,
  assignee: string | undefined,
  assignees: readonly string[] | undefined,
): Promise<User[]> {
  const names = [...(assignees ?? [])];
  if (names[0] === "") names.length = 0;
  if (assignee) names.unshift(assignee);
  const unique = [...new Set(names.map((name) => name.toLowerCase()))].filter((name) => name !== "");
  const found = await users.findUsersByNames(db, unique);
  const byName = new Map(found.map((user) => [user.lowerName, user]));
  const result: User[] = [];
  for (const name of unique) {
    const user = byName.get(name);
    if (user?.type !== "individual") {
      throw new InvalidArgumentError(
        `Assignee does not exist: [name: user does not exist [uid: 0, name: ${name}]]`,
      );
    }
    const permission = await permissions.forRepository(user, repo);
    const assignable =
      isRepoAdmin(permission) ||
      (["repo.code", "repo.issues", "repo.pulls", "repo.wiki", "repo.releases"] as const).some((unit) =>
        canWrite(permission, unit),
      ) ||
      canRead(permission, "repo.pulls");
    if (!assignable) {
      throw new InvalidArgumentError(
        `user doesn't have access to repo [user_id: ${user.id}, repo_name: ${repo.name}]`,
      );
    }
    result.push(user);
  }
  return result;
}

/**
 * The time a change is recorded at: now, or the `updated_at` a repository admin gave, which
 * must lie between the issue's creation and now (Forgejo's SetIssueUpdateDate).
 */
export function updateTime(ctx: RepoAccess, issue: Issue, updatedAt: Date | undefined): Date {
  const now = new Date();
  if (!updatedAt) return now;
  if (!isRepoAdmin(ctx.permission) && ctx.viewer?.isAdmin !== true) {
    throw new PermissionDeniedError("user needs to have admin or owner right");
  }
  if (updatedAt.getTime() < issue.createdAt.getTime() - 999 || updatedAt.getTime() > now.getTime()) {
    throw new PermissionDeniedError("unallowed update date");
  }
  return updatedAt;
}

/** The signed-in user a write acts as (routes that write require one). */
export function actorOf(ctx: RepoAccess): User {
  if (!ctx.viewer) throw new PermissionDeniedError("token is required");
  return ctx.viewer;
}

/** Recounts a repository's issues and the milestones and labels a change touched. */
export async function recountIssueCounters(
  db: Db,
  repoId: number,
  milestoneIds: readonly (number | null)[],
  labelIds: readonly number[],
): Promise<void> {
  await issues.recountRepoIssues(db, repoId);
  await milestones.recountMilestones(db, milestoneIds);
  await labels.recountLabels(db, labelIds);
}

/** What a new issue or pull request starts with, resolved and checked by its service. */
export interface NewIssueRecord {
  readonly repoId: number;
  readonly poster: User;
  readonly title: string;
  readonly body: string;
  readonly ref: string;
  readonly milestone: Milestone | undefined;
  readonly labels: readonly Label[];
  readonly assignees: readonly User[];
  readonly mentioned: readonly User[];
  readonly deadline: Date | null;
  readonly isPull: boolean;
}

/**
 * Numbers and inserts a new issue or pull request in the caller's transaction, with its labels,
 * milestone and assignees (each with its timeline event) and its mentions.
 */
export async function insertNewIssue(trx: Db, record: NewIssueRecord, now: Date): Promise<Issue> {
  const index = await issues.nextIssueIndex(trx, record.repoId);
  const issue = await issues.insertIssue(
    trx,
    {
      repoId: record.repoId,
      posterId: record.poster.id,
      title: limitTitle(record.title),
      content: record.body,
      ref: record.ref,
      milestoneId: record.milestone?.id ?? null,
      deadline: record.deadline,
      isPull: record.isPull,
    },
    index,
    now,
  );
  const event = (type: number, fields: Record<string, unknown>) =>
    comments.insertComment(trx, { issueId: issue.id, type, posterId: record.poster.id, ...fields }, now);
  await issues.addIssueLabels(
    trx,
    issue.id,
    record.labels.map((label) => label.id),
  );
  for (const label of record.labels) await event(CommentType.label, { labelId: label.id, content: "1" });
  await issues.addAssignees(
    trx,
    issue.id,
    record.assignees.map((user) => user.id),
  );
  for (const user of record.assignees) await event(CommentType.assignees, { assigneeId: user.id });
  if (record.milestone) await event(CommentType.milestone, { milestoneId: record.milestone.id });
  await issues.markMentioned(
    trx,
    issue.id,
    record.mentioned.map((user) => user.id),
  );
  return issue;
}

/**
 * What every new issue or pull request ends its transaction with: the counters it moves
 * recounted, and everyone it concerns notified once.
 */
export async function announceNewIssue(
  trx: Db,
  issue: Issue,
  record: NewIssueRecord,
  now: Date,
): Promise<void> {
  await recountIssueCounters(
    trx,
    record.repoId,
    [record.milestone?.id ?? null],
    record.labels.map((label) => label.id),
  );
  await notifications.notifyIssueChange(trx, {
    issueId: issue.id,
    repoId: record.repoId,
    isPull: record.isPull,
    actorId: record.poster.id,
    commentId: null,
    at: now,
  });
}
