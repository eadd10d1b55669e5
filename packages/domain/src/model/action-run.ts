/** A run of a workflow (Forgejo's ActionRun). */
export interface ActionRun {
  readonly id: number;
  readonly repoId: number;
  readonly ownerId: number;
  readonly index: number;
  readonly title: string;
  readonly workflowId: string;
  readonly triggerUserId: number | null;
  readonly ref: string;
  readonly commitSha: string;
  readonly event: string;
  readonly status: string;
  readonly inputs: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly startedAt: Date | null;
  readonly stoppedAt: Date | null;
}

/** A task with what the API shows of its job and run. */
export interface ActionTask {
  readonly id: number;
  readonly status: string;
  readonly createdAt: Date;
  readonly updatedAt: Date;
  readonly jobName: string;
  readonly runIndex: number;
  readonly runTitle: string;
  readonly runEvent: string;
  readonly runRef: string;
  readonly runCommitSha: string;
  readonly runWorkflowId: string;
  readonly runStartedAt: Date | null;
}

/** Whose Actions secrets, variables or jobs: an owner's (user or organization) or a repository's. */
export type ActionScope = { readonly ownerId: number } | { readonly repoId: number };
