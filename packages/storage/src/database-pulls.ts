import type { ColumnType, Generated } from "kysely";

type CreatedAt = ColumnType<Date, Date | undefined, never>;
type UpdatedAt = ColumnType<Date, Date | undefined, Date>;
type JsonList = ColumnType<string[], string | undefined, string>;

/** A pull request: the issue it is (`issueId`), its base and head, and what is known of merging them. */
export interface PullRequestTable {
  id: Generated<number>;
  issueId: number;
  index: number;
  baseRepoId: number;
  /** Null once the head repository is deleted. */
  headRepoId: number | null;
  baseBranch: string;
  headBranch: string;
  mergeBase: Generated<string>;
  /** The head and base commits `status` was computed for. */
  headCommitId: Generated<string>;
  baseCommitId: Generated<string>;
  /** Forgejo's PullRequestStatus number. */
  status: Generated<number>;
  conflictedFiles: JsonList;
  changedProtectedFiles: JsonList;
  commitsAhead: Generated<number>;
  commitsBehind: Generated<number>;
  additions: Generated<number>;
  deletions: Generated<number>;
  changedFiles: Generated<number>;
  allowMaintainerEdit: Generated<boolean>;
  hasMerged: Generated<boolean>;
  mergedCommitId: Generated<string>;
  mergerId: number | null;
  mergedAt: Date | null;
  flow: Generated<number>;
}

/** A review, or a request for one (`type` 4), by a user or a team. */
export interface ReviewTable {
  id: Generated<number>;
  type: number;
  reviewerId: number | null;
  reviewerTeamId: number | null;
  issueId: number;
  content: Generated<string>;
  official: Generated<boolean>;
  commitId: Generated<string>;
  stale: Generated<boolean>;
  dismissed: Generated<boolean>;
  createdAt: CreatedAt;
  updatedAt: UpdatedAt;
}

/** A merge scheduled for when the pull request becomes mergeable. */
export interface PullAutoMergeTable {
  id: Generated<number>;
  pullId: number;
  doerId: number;
  mergeStyle: string;
  message: Generated<string>;
  deleteBranchAfterMerge: Generated<boolean>;
  createdAt: CreatedAt;
}

/** The pull request tables, merged into `Database`. */
export interface PullTables {
  pullRequest: PullRequestTable;
  review: ReviewTable;
  pullAutoMerge: PullAutoMergeTable;
}
