import type { Issue, PullRequest, Repository, Team, User } from "@kiln/domain";
import { branchTip, type GitRepository, pullHeadRef, pullHeadTip } from "@kiln/git";
import { type Db, repositories, reviews, teams, users } from "@kiln/storage";
import { type IssueView, loadIssueViews } from "../issues/issue-views.js";
import type { StatusCheckVerdict } from "./status-checks.js";

/** A pull request with the issue it is. */
export interface PullIssue {
  readonly issue: Issue;
  readonly pull: PullRequest;
}

/** One side of a pull request as the API shows it. */
export interface PullSide {
  /** The branch name (or `refs/pull/N/head` once the head branch is gone). */
  readonly ref: string;
  readonly sha: string;
  /** Null once the head repository is gone. */
  readonly repo: Repository | null;
}

/** Everything a pull request's API form shows, loaded for many at once. */
export interface PullView {
  readonly issue: IssueView;
  readonly pull: PullRequest;
  readonly base: PullSide;
  readonly head: PullSide;
  readonly merger: User | null;
  readonly requestedReviewers: readonly User[];
  readonly requestedTeams: readonly Team[];
  /** Submitted reviews (Forgejo counts review entries, not line comments). */
  readonly reviewComments: number;
  /** The base branch rule's required status checks on the head; undefined when none are required. */
  readonly statusChecks: StatusCheckVerdict | undefined;
}

/** What a caller of {@link loadPullViews} may add: status check verdicts, and how to reach a fork's git. */
export interface PullViewOptions {
  /** The required status checks of a pull request (none when absent). */
  readonly statusChecks?: (item: PullIssue) => Promise<StatusCheckVerdict | undefined>;
  /** The git repository of a head repository other than the base; without it, a fork's head shows `refs/pull/N/head`. */
  readonly headGit?: (repo: Repository) => Promise<GitRepository | undefined>;
}

/**
 * Loads the views of pull requests of one base repository: issue parts in one batch, then per
 * pull request its reviewers and the current tips of both sides (read from the refs, cheap).
 */
export async function loadPullViews(
  db: Db,
  git: GitRepository,
  baseRepo: Repository,
  list: readonly PullIssue[],
  options: PullViewOptions = {},
): Promise<PullView[]> {
  if (list.length === 0) return [];
  const issueViews = await loadIssueViews(
    db,
    list.map((item) => item.issue),
    [baseRepo],
  );
  const issueIds = list.map((item) => item.issue.id);
  const [counts, deciding, teamRequests] = await Promise.all([
    reviews.submittedReviewCounts(db, issueIds),
    reviews.latestDecidingReviewsOf(db, issueIds),
    reviews.requestedTeamIdsOf(db, issueIds),
  ]);
  const reviewerIdsOf = (issueId: number) =>
    (deciding.get(issueId) ?? []).map((r) => r.reviewerId).filter((id): id is number => id !== null);
  const userIds = new Set<number>();
  for (const { issue, pull } of list) {
    if (pull.mergerId !== null) userIds.add(pull.mergerId);
    for (const id of reviewerIdsOf(issue.id)) userIds.add(id);
  }
  const teamIds = [...new Set([...teamRequests.values()].flat())];
  const [people, teamList] = await Promise.all([
    users.findUsersByIds(db, [...userIds]),
    Promise.all(teamIds.map((id) => teams.findTeamById(db, id))),
  ]);
  const userById = new Map(people.map((user) => [user.id, user]));
  const teamById = new Map(
    teamList.filter((team): team is Team => team !== undefined).map((team) => [team.id, team]),
  );
  const headRepos = new Map<number, Repository | undefined>([[baseRepo.id, baseRepo]]);
  const views: PullView[] = [];
  for (const [i, item] of list.entries()) {
    const { pull } = item;
    const headRepoId = pull.headRepoId;
    if (headRepoId !== null && !headRepos.has(headRepoId)) {
      headRepos.set(headRepoId, await repositories.findRepositoryById(db, headRepoId));
    }
    const headRepo = headRepoId === null ? undefined : headRepos.get(headRepoId);
    const headGit =
      headRepoId === baseRepo.id ? git : headRepo ? await options.headGit?.(headRepo) : undefined;
    const [baseSha, headBranchSha] = await Promise.all([
      branchTip(git, pull.baseBranch),
      headGit ? branchTip(headGit, pull.headBranch) : Promise.resolve(undefined),
    ]);
    const headSha = headBranchSha ?? (await pullHeadTip(git, pull.index)) ?? pull.headCommitId;
    views.push({
      issue: issueViews[i] as IssueView,
      pull,
      base: { ref: pull.baseBranch, sha: baseSha ?? "", repo: baseRepo },
      head: {
        ref: headBranchSha ? pull.headBranch : pullHeadRef(pull.index),
        sha: headSha,
        repo: headRepo ?? null,
      },
      merger: pull.mergerId === null ? null : (userById.get(pull.mergerId) ?? null),
      requestedReviewers: reviewerIdsOf(pull.issueId)
        .map((id) => userById.get(id))
        .filter((user): user is User => user !== undefined),
      requestedTeams: (teamRequests.get(pull.issueId) ?? [])
        .map((id) => teamById.get(id))
        .filter((team): team is Team => team !== undefined),
      reviewComments: counts.get(pull.issueId) ?? 0,
      statusChecks: await options.statusChecks?.(item),
    });
  }
  return views;
}
