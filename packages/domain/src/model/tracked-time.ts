/** Time tracked on an issue, with where it was tracked. */
export interface TrackedTimeEntry {
  readonly id: number;
  readonly issueId: number;
  readonly userId: number | null;
  /** Seconds. */
  readonly time: number;
  readonly deleted: boolean;
  readonly createdAt: Date;
  readonly repoId: number;
  readonly issueIndex: number;
}

/** A running stopwatch with the issue and repository it runs on. */
export interface StopwatchEntry {
  readonly id: number;
  readonly issueId: number;
  readonly userId: number;
  readonly createdAt: Date;
  readonly issueIndex: number;
  readonly issueTitle: string;
  readonly repoId: number;
  readonly repoName: string;
  readonly repoOwnerName: string;
}
