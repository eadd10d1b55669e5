/** A push mirror of a repository: a remote it pushes to on a schedule or on each commit. */
export interface PushMirror {
  readonly id: number;
  readonly repoId: number;
  readonly remoteName: string;
  readonly remoteAddress: string;
  /** Sealed with the instance's secret key (empty: none). */
  readonly credentials: string;
  readonly intervalMs: number;
  readonly syncOnCommit: boolean;
  readonly lastUpdateAt: Date | null;
  readonly lastError: string;
  readonly createdAt: Date;
}
