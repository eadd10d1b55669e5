/** Forgejo's PullRequestStatus: what is known about merging a pull request's head into its base. */
export const PullStatus = {
  conflict: 0,
  checking: 1,
  mergeable: 2,
  manuallyMerged: 3,
  error: 4,
  /** The head adds nothing to the base (merging would change no file). */
  empty: 5,
  /** The head is already in the base's history. */
  ancestor: 6,
} as const;

export type PullStatusValue = (typeof PullStatus)[keyof typeof PullStatus];

/** A pull request as stored: the issue it is, its base and head, and what merging them gives. */
export interface PullRequest {
  readonly id: number;
  readonly issueId: number;
  readonly index: number;
  readonly baseRepoId: number;
  /** Null once the head repository was deleted. */
  readonly headRepoId: number | null;
  readonly baseBranch: string;
  readonly headBranch: string;
  readonly mergeBase: string;
  /** The head and base commits the status was computed for (empty before the first check). */
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
  readonly allowMaintainerEdit: boolean;
  readonly hasMerged: boolean;
  readonly mergedCommitId: string;
  readonly mergerId: number | null;
  readonly mergedAt: Date | null;
}

/** The merge styles of Forgejo's `Do` (the last one records a merge done outside Kiln). */
export const MERGE_STYLES = [
  "merge",
  "rebase",
  "rebase-merge",
  "squash",
  "fast-forward-only",
  "manually-merged",
] as const;

export type MergeStyleName = (typeof MERGE_STYLES)[number];

/** Forgejo's ReviewType numbers. */
export const ReviewType = {
  pending: 0,
  approve: 1,
  comment: 2,
  requestChanges: 3,
  /** A request for a review, kept as a review of this type. */
  request: 4,
} as const;

export type ReviewTypeValue = (typeof ReviewType)[keyof typeof ReviewType];

/** A review of a pull request, or a request for one, by a user or a team. */
export interface Review {
  readonly id: number;
  readonly type: ReviewTypeValue;
  readonly reviewerId: number | null;
  readonly reviewerTeamId: number | null;
  readonly issueId: number;
  readonly content: string;
  readonly official: boolean;
  readonly commitId: string;
  readonly stale: boolean;
  readonly dismissed: boolean;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A repository's pull request settings (Forgejo's PullRequestsConfig, by its API names). */
export interface PullsConfig {
  readonly allowMergeCommits: boolean;
  readonly allowRebase: boolean;
  readonly allowRebaseExplicit: boolean;
  readonly allowSquashMerge: boolean;
  readonly allowFastForwardOnlyMerge: boolean;
  readonly allowManualMerge: boolean;
  readonly autodetectManualMerge: boolean;
  readonly allowRebaseUpdate: boolean;
  readonly defaultDeleteBranchAfterMerge: boolean;
  readonly defaultMergeStyle: Exclude<MergeStyleName, "manually-merged">;
  readonly defaultAllowMaintainerEdit: boolean;
  readonly ignoreWhitespaceConflicts: boolean;
}

/** Whether a repository's settings allow a merge style (Forgejo's IsMergeStyleAllowed). */
export function isMergeStyleAllowed(config: PullsConfig, style: MergeStyleName): boolean {
  switch (style) {
    case "merge":
      return config.allowMergeCommits;
    case "rebase":
      return config.allowRebase;
    case "rebase-merge":
      return config.allowRebaseExplicit;
    case "squash":
      return config.allowSquashMerge;
    case "fast-forward-only":
      return config.allowFastForwardOnlyMerge;
    case "manually-merged":
      return config.allowManualMerge;
  }
}
