import type { Issue, Label, Milestone, Repository, User } from "@kiln/domain";
import { type Db, issues, labels, milestones, repositories, users } from "@kiln/storage";

/** An issue with everything its API form shows, loaded for many issues at once. */
export interface IssueView {
  readonly issue: Issue;
  readonly repo: Repository;
  /** Null once the poster's account is gone (the API shows the Ghost user). */
  readonly poster: User | null;
  readonly labels: readonly Label[];
  readonly milestone: Milestone | null;
  readonly assignees: readonly User[];
}

/**
 * Loads the views of issues with a fixed number of queries, whatever their count: posters and
 * assignees together, labels, milestones, and the repositories not given.
 */
export async function loadIssueViews(
  db: Db,
  list: readonly Issue[],
  known: readonly Repository[] = [],
): Promise<IssueView[]> {
  if (list.length === 0) return [];
  const ids = list.map((issue) => issue.id);
  const [labelsOf, assigneesOf, milestoneById] = await Promise.all([
    labels.labelsOfIssues(db, ids),
    issues.assigneesOfIssues(db, ids),
    milestones.milestonesByIds(
      db,
      list.map((issue) => issue.milestoneId).filter((id): id is number => id !== null),
    ),
  ]);
  const userIds = new Set<number>();
  for (const issue of list) if (issue.posterId !== null) userIds.add(issue.posterId);
  for (const assignees of assigneesOf.values()) for (const id of assignees) userIds.add(id);
  const repoById = new Map(known.map((repo) => [repo.id, repo]));
  const missingRepos = [...new Set(list.map((issue) => issue.repoId))].filter((id) => !repoById.has(id));
  const [people, repos] = await Promise.all([
    users.findUsersByIds(db, [...userIds]),
    Promise.all(missingRepos.map((id) => repositories.findRepositoryById(db, id))),
  ]);
  for (const repo of repos) if (repo) repoById.set(repo.id, repo);
  const userById = new Map(people.map((user) => [user.id, user]));
  return list.map((issue) => ({
    issue,
    repo: repoById.get(issue.repoId) as Repository,
    poster: issue.posterId === null ? null : (userById.get(issue.posterId) ?? null),
    labels: labelsOf.get(issue.id) ?? [],
    milestone: issue.milestoneId === null ? null : (milestoneById.get(issue.milestoneId) ?? null),
    assignees: (assigneesOf.get(issue.id) ?? [])
      .map((id) => userById.get(id))
      .filter((user): user is User => user !== undefined),
  }));
}
