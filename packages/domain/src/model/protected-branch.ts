/**
 * The settings of a branch protection rule as stored (Forgejo's `ProtectedBranch` columns).
 * Whitelists hold user and team ids, so renaming an account or team does not break a rule; the
 * API shows and takes names.
 */
export interface ProtectedBranchSettings {
  /** Pushing is allowed at all (to everyone with write access, or only the push whitelist). */
  readonly canPush: boolean;
  /** Only the push whitelist may push. */
  readonly enableWhitelist: boolean;
  readonly whitelistUserIds: readonly number[];
  readonly whitelistTeamIds: readonly number[];
  readonly whitelistDeployKeys: boolean;
  readonly enableMergeWhitelist: boolean;
  readonly mergeWhitelistUserIds: readonly number[];
  readonly mergeWhitelistTeamIds: readonly number[];
  readonly enableStatusCheck: boolean;
  readonly statusCheckContexts: readonly string[];
  readonly enableApprovalsWhitelist: boolean;
  readonly approvalsWhitelistUserIds: readonly number[];
  readonly approvalsWhitelistTeamIds: readonly number[];
  readonly requiredApprovals: number;
  readonly blockOnRejectedReviews: boolean;
  readonly blockOnOfficialReviewRequests: boolean;
  readonly blockOnOutdatedBranch: boolean;
  readonly dismissStaleApprovals: boolean;
  readonly ignoreStaleApprovals: boolean;
  readonly requireSignedCommits: boolean;
  /** `;`-separated globs of files no push may change. */
  readonly protectedFilePatterns: string;
  /** `;`-separated globs of files anyone with write access may change by push. */
  readonly unprotectedFilePatterns: string;
  readonly applyToAdmins: boolean;
}

/** A branch protection rule of a repository. `ruleName` is a branch name or a glob over them. */
export interface ProtectedBranch {
  readonly id: number;
  readonly repoId: number;
  readonly ruleName: string;
  /** Order among glob rules (lower first); new rules go last. */
  readonly priority: number;
  readonly settings: ProtectedBranchSettings;
  readonly createdAt: Date;
  readonly updatedAt: Date;
}

/** A rule that protects and allows nothing extra: Forgejo's defaults for a new rule. */
export const DEFAULT_PROTECTED_BRANCH_SETTINGS: ProtectedBranchSettings = {
  canPush: false,
  enableWhitelist: false,
  whitelistUserIds: [],
  whitelistTeamIds: [],
  whitelistDeployKeys: false,
  enableMergeWhitelist: false,
  mergeWhitelistUserIds: [],
  mergeWhitelistTeamIds: [],
  enableStatusCheck: false,
  statusCheckContexts: [],
  enableApprovalsWhitelist: false,
  approvalsWhitelistUserIds: [],
  approvalsWhitelistTeamIds: [],
  requiredApprovals: 0,
  blockOnRejectedReviews: false,
  blockOnOfficialReviewRequests: false,
  blockOnOutdatedBranch: false,
  dismissStaleApprovals: false,
  ignoreStaleApprovals: false,
  requireSignedCommits: false,
  protectedFilePatterns: "",
  unprotectedFilePatterns: "",
  applyToAdmins: false,
};
