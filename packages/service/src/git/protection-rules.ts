import type { ProtectedBranch, ProtectedBranchSettings } from "@kiln/domain";
import type { BranchRulePolicy } from "@kiln/git";
import { mayPush, type PusherFacts } from "../access/branch-rules.js";

export { mayMerge, mayPush, type PusherFacts } from "../access/branch-rules.js";

/**
 * What a rule lets this pusher do over git, for the pre-receive hook. As in Forgejo, nobody may
 * delete or force-push a protected branch, or change its protected files, by pushing (Forgejo's
 * API has no force-push settings, and protected files change only through merges).
 */
export function toBranchRulePolicy(rule: ProtectedBranch, facts: PusherFacts): BranchRulePolicy {
  return {
    ruleName: rule.ruleName,
    priority: rule.priority,
    id: rule.id,
    canPush: mayPush(rule.settings, facts),
    canForcePush: false,
    canDelete: false,
    requireSignedCommits: rule.settings.requireSignedCommits,
    protectedFilePatterns: rule.settings.protectedFilePatterns,
    unprotectedFilePatterns: rule.settings.unprotectedFilePatterns,
    canChangeProtectedFiles: false,
  };
}

/** Whitelists as ids, after names were resolved and filtered to those with access (write for pushing, read for merging and approving). */
export interface ResolvedWhitelists {
  readonly pushUserIds?: readonly number[];
  readonly pushTeamIds?: readonly number[];
  readonly mergeUserIds?: readonly number[];
  readonly mergeTeamIds?: readonly number[];
  readonly approvalsUserIds?: readonly number[];
  readonly approvalsTeamIds?: readonly number[];
}

/** The non-whitelist options of Forgejo's Create/EditBranchProtectionOption; absent means unset. */
export interface BranchProtectionOptions {
  readonly enablePush?: boolean;
  readonly enablePushWhitelist?: boolean;
  readonly pushWhitelistDeployKeys?: boolean;
  readonly enableMergeWhitelist?: boolean;
  readonly enableStatusCheck?: boolean;
  readonly statusCheckContexts?: readonly string[];
  readonly requiredApprovals?: number;
  readonly enableApprovalsWhitelist?: boolean;
  readonly blockOnRejectedReviews?: boolean;
  readonly blockOnOfficialReviewRequests?: boolean;
  readonly blockOnOutdatedBranch?: boolean;
  readonly dismissStaleApprovals?: boolean;
  readonly ignoreStaleApprovals?: boolean;
  readonly requireSignedCommits?: boolean;
  readonly protectedFilePatterns?: string;
  readonly unprotectedFilePatterns?: string;
  readonly applyToAdmins?: boolean;
}

/** Settings of a new rule, as Forgejo's CreateBranchProtection derives them from the request. */
export function settingsForCreate(
  options: BranchProtectionOptions,
  lists: ResolvedWhitelists,
): ProtectedBranchSettings {
  const push = options.enablePush ?? false;
  const pushWhitelist = push && (options.enablePushWhitelist ?? false);
  return {
    canPush: push,
    enableWhitelist: pushWhitelist,
    whitelistUserIds: lists.pushUserIds ?? [],
    whitelistTeamIds: lists.pushTeamIds ?? [],
    whitelistDeployKeys: pushWhitelist && (options.pushWhitelistDeployKeys ?? false),
    enableMergeWhitelist: options.enableMergeWhitelist ?? false,
    mergeWhitelistUserIds: lists.mergeUserIds ?? [],
    mergeWhitelistTeamIds: lists.mergeTeamIds ?? [],
    enableStatusCheck: options.enableStatusCheck ?? false,
    statusCheckContexts: options.statusCheckContexts ?? [],
    enableApprovalsWhitelist: options.enableApprovalsWhitelist ?? false,
    approvalsWhitelistUserIds: lists.approvalsUserIds ?? [],
    approvalsWhitelistTeamIds: lists.approvalsTeamIds ?? [],
    requiredApprovals: Math.max(0, options.requiredApprovals ?? 0),
    blockOnRejectedReviews: options.blockOnRejectedReviews ?? false,
    blockOnOfficialReviewRequests: options.blockOnOfficialReviewRequests ?? false,
    blockOnOutdatedBranch: options.blockOnOutdatedBranch ?? false,
    dismissStaleApprovals: options.dismissStaleApprovals ?? false,
    ignoreStaleApprovals: options.ignoreStaleApprovals ?? false,
    requireSignedCommits: options.requireSignedCommits ?? false,
    protectedFilePatterns: options.protectedFilePatterns ?? "",
    unprotectedFilePatterns: options.unprotectedFilePatterns ?? "",
    applyToAdmins: options.applyToAdmins ?? false,
  };
}

/**
 * Settings after an edit, as Forgejo's EditBranchProtection applies one: only fields that are set
 * change; disabling push also disables its whitelist; a negative approval count is ignored.
 */
export function settingsForEdit(
  current: ProtectedBranchSettings,
  options: BranchProtectionOptions,
  lists: ResolvedWhitelists,
): ProtectedBranchSettings {
  let { canPush, enableWhitelist, whitelistDeployKeys } = current;
  if (options.enablePush === false) {
    canPush = false;
    enableWhitelist = false;
    whitelistDeployKeys = false;
  } else if (options.enablePush === true) {
    canPush = true;
    if (options.enablePushWhitelist === false) {
      enableWhitelist = false;
      whitelistDeployKeys = false;
    } else if (options.enablePushWhitelist === true) {
      enableWhitelist = true;
      if (options.pushWhitelistDeployKeys !== undefined)
        whitelistDeployKeys = options.pushWhitelistDeployKeys;
    }
  }
  const pick = <K extends keyof BranchProtectionOptions & keyof ProtectedBranchSettings>(key: K) =>
    (options[key] ?? current[key]) as ProtectedBranchSettings[K];
  return {
    ...current,
    canPush,
    enableWhitelist,
    whitelistDeployKeys,
    whitelistUserIds: lists.pushUserIds ?? current.whitelistUserIds,
    whitelistTeamIds: lists.pushTeamIds ?? current.whitelistTeamIds,
    enableMergeWhitelist: pick("enableMergeWhitelist"),
    mergeWhitelistUserIds: lists.mergeUserIds ?? current.mergeWhitelistUserIds,
    mergeWhitelistTeamIds: lists.mergeTeamIds ?? current.mergeWhitelistTeamIds,
    enableStatusCheck: pick("enableStatusCheck"),
    statusCheckContexts: pick("statusCheckContexts"),
    requiredApprovals:
      options.requiredApprovals !== undefined && options.requiredApprovals >= 0
        ? options.requiredApprovals
        : current.requiredApprovals,
    enableApprovalsWhitelist: pick("enableApprovalsWhitelist"),
    approvalsWhitelistUserIds: lists.approvalsUserIds ?? current.approvalsWhitelistUserIds,
    approvalsWhitelistTeamIds: lists.approvalsTeamIds ?? current.approvalsWhitelistTeamIds,
    blockOnRejectedReviews: pick("blockOnRejectedReviews"),
    blockOnOfficialReviewRequests: pick("blockOnOfficialReviewRequests"),
    blockOnOutdatedBranch: pick("blockOnOutdatedBranch"),
    dismissStaleApprovals: pick("dismissStaleApprovals"),
    ignoreStaleApprovals: pick("ignoreStaleApprovals"),
    requireSignedCommits: pick("requireSignedCommits"),
    protectedFilePatterns: pick("protectedFilePatterns"),
    unprotectedFilePatterns: pick("unprotectedFilePatterns"),
    applyToAdmins: pick("applyToAdmins"),
  };
}
