import { type api, formatTime } from "@kiln/domain";
import { isPlainRuleName } from "@kiln/git";
import type * as v from "valibot";
import type { BranchProtectionView } from "../git/branch-protection-service.js";
import type { BranchView } from "../git/branch-service.js";
import { type RepoLinks, toPayloadCommit } from "./git.js";

/**
 * A branch for one viewer (Forgejo's `ToBranch`): the rule's name only when the access module
 * says the viewer sees rule names (`seesRuleName`), push and merge rights as the service judged them.
 */
export function toApiBranch(
  view: BranchView,
  links: RepoLinks,
  seesRuleName: boolean,
): v.InferOutput<typeof api.Branch> {
  const { rule } = view;
  return {
    name: view.branch.name,
    commit: toPayloadCommit(view.branch.commit, view.users, links, view.verification),
    protected: rule !== undefined,
    required_approvals: rule?.settings.requiredApprovals ?? 0,
    enable_status_check: rule?.settings.enableStatusCheck ?? false,
    status_check_contexts: [...(rule?.settings.statusCheckContexts ?? [])],
    user_can_push: view.userCanPush,
    user_can_merge: view.userCanMerge,
    effective_branch_protection_name: rule && seesRuleName ? rule.ruleName : "",
  };
}

/** A branch protection rule with users and teams by name (Forgejo's `BranchProtection`). */
export function toApiBranchProtection(
  view: BranchProtectionView,
): v.InferOutput<typeof api.BranchProtection> {
  const { rule } = view;
  const s = rule.settings;
  return {
    branch_name: isPlainRuleName(rule.ruleName) ? rule.ruleName : "",
    rule_name: rule.ruleName,
    enable_push: s.canPush,
    enable_push_whitelist: s.enableWhitelist,
    push_whitelist_usernames: [...view.pushUsers],
    push_whitelist_teams: [...view.pushTeams],
    push_whitelist_deploy_keys: s.whitelistDeployKeys,
    enable_merge_whitelist: s.enableMergeWhitelist,
    merge_whitelist_usernames: [...view.mergeUsers],
    merge_whitelist_teams: [...view.mergeTeams],
    enable_status_check: s.enableStatusCheck,
    status_check_contexts: [...s.statusCheckContexts],
    required_approvals: s.requiredApprovals,
    enable_approvals_whitelist: s.enableApprovalsWhitelist,
    approvals_whitelist_username: [...view.approvalsUsers],
    approvals_whitelist_teams: [...view.approvalsTeams],
    block_on_rejected_reviews: s.blockOnRejectedReviews,
    block_on_official_review_requests: s.blockOnOfficialReviewRequests,
    block_on_outdated_branch: s.blockOnOutdatedBranch,
    dismiss_stale_approvals: s.dismissStaleApprovals,
    ignore_stale_approvals: s.ignoreStaleApprovals,
    require_signed_commits: s.requireSignedCommits,
    protected_file_patterns: s.protectedFilePatterns,
    unprotected_file_patterns: s.unprotectedFilePatterns,
    apply_to_admins: s.applyToAdmins,
    created_at: formatTime(rule.createdAt),
    updated_at: formatTime(rule.updatedAt),
  };
}
