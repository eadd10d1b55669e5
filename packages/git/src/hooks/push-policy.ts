import type { TagRulePolicy } from "./tag-rules.js";

/**
 * What one branch protection rule allows the pusher at hand. The caller computes it from the
 * stored rule (Forgejo's `BranchProtection`) and the pusher's permissions and whitelists.
 */
export interface BranchRulePolicy {
  /** The rule name: a branch name, or a glob over branch names (`release/*`, `**`). */
  readonly ruleName: string;
  /** Order among glob rules; lower comes first. Exact-name rules always win over globs. */
  readonly priority?: number;
  /** Tie-breaker after priority, like Forgejo's rule id. */
  readonly id?: number;
  /** The pusher may push to a branch this rule matches. */
  readonly canPush: boolean;
  /** The pusher may rewrite history (non-fast-forward) on a matching branch. */
  readonly canForcePush: boolean;
  /** The pusher may delete a matching branch. */
  readonly canDelete: boolean;
  /** Every new commit must carry a signature. */
  readonly requireSignedCommits: boolean;
  /** `;`-separated globs of files nobody may change by push unless `canChangeProtectedFiles`. */
  readonly protectedFilePatterns: string;
  /** `;`-separated globs of files a pusher without `canPush` may still change. */
  readonly unprotectedFilePatterns: string;
  /** The pusher may change files matching `protectedFilePatterns`. */
  readonly canChangeProtectedFiles: boolean;
}

/** The push rules of one pusher on one repository, against which the server judges a push. */
export interface PushPolicy {
  /** Branch protection rules of the repository, in any order. */
  readonly branchRules: readonly BranchRulePolicy[];
  /** The repository's default branch; pushes that delete it are refused, as in Forgejo. */
  readonly defaultBranch?: string;
  /**
   * The repository's owner is over quota under `[quota] ENFORCE` (decided by the server before git
   * runs): every ref update that is not a deletion is refused with Forgejo's `Quota exceeded`.
   */
  readonly quotaExceeded?: boolean;
  /**
   * Tag protection rules with what each allows this pusher (Forgejo's `ProtectedTag`): creating,
   * moving or deleting a tag a rule matches needs one matching rule that allows the pusher.
   */
  readonly tagRules?: readonly TagRulePolicy[];
  /** How many refs and files the push may leave (`[repository] MAX_REFS`, `MAX_FILES`). */
  readonly limits?: PushLimits;
  /**
   * The only branches the pusher may update, when set: a maintainer of a pull request that allows
   * maintainers' edits writes to its head branch in the fork and nowhere else (Forgejo's
   * CanMaintainerWriteToBranch). Any other ref update is refused.
   */
  readonly onlyBranches?: readonly string[];
  /**
   * Git LFS locks held by users other than the pusher: a branch update that changes a locked
   * path (compared without case, as locks are) is refused.
   */
  readonly lfsLocks?: readonly LfsLockPolicy[];
}

/** A path another user holds a Git LFS lock on, and who holds it (named in the refusal). */
export interface LfsLockPolicy {
  readonly path: string;
  readonly owner: string;
}

/** One ref update of a push: `oldSha` is all zeros for a creation, `newSha` for a deletion. */
export interface RefUpdate {
  readonly oldSha: string;
  readonly newSha: string;
  readonly ref: string;
}

/** The environment variable naming the file the post-receive hook writes the applied ref updates to. */
export const PUSH_REPORT_ENV = "KILN_PUSH_REPORT";

/** The object id git uses for "no object" in ref updates. */
export const ZERO_SHA = "0000000000000000000000000000000000000000";

/**
 * How large a push may leave a repository (`[repository] MAX_REFS` and `MAX_FILES`): a push of
 * 20,000 branches, or of a tree of 200,000 empty files, costs the server far more than the few
 * bytes it stores, so quota alone does not bound it.
 */
export interface PushLimits {
  /** The most refs the repository may hold once the push is applied. */
  readonly maxRefs?: number;
  /** The most files (blobs and submodules, in every directory) the tree of a pushed ref may hold. */
  readonly maxFiles?: number;
}
