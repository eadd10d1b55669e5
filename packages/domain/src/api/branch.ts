import * as v from "valibot";
import { PayloadCommit } from "./git.js";
import { dateTime, int64 } from "./primitives.js";

/** A branch with its head commit and what its protection means for the caller (Forgejo's `Branch`). */
export const Branch = v.object({
  name: v.string(),
  commit: PayloadCommit,
  protected: v.boolean(),
  required_approvals: int64(),
  enable_status_check: v.boolean(),
  status_check_contexts: v.array(v.string()),
  user_can_push: v.boolean(),
  user_can_merge: v.boolean(),
  effective_branch_protection_name: v.string(),
});

/** Body of `POST /repos/{owner}/{repo}/branches`. */
export const CreateBranchRepoOption = v.object({
  new_branch_name: v.pipe(v.string(), v.minLength(1, "Required"), v.maxLength(100)),
  /** Deprecated by Forgejo in favour of `old_ref_name`; must name an existing branch. */
  old_branch_name: v.optional(v.string()),
  old_ref_name: v.optional(v.string()),
});

const names = () => v.array(v.string());
/** Required status check patterns: bounded (Forgejo's are not) so judging a pull request stays cheap. */
const statusContexts = () => v.pipe(v.array(v.pipe(v.string(), v.maxLength(255))), v.maxLength(50));

/** A branch protection rule with users and teams by name (Forgejo's `BranchProtection`). */
export const BranchProtection = v.object({
  /** Deprecated: the rule name when it is a plain branch name, else "". */
  branch_name: v.string(),
  rule_name: v.string(),
  enable_push: v.boolean(),
  enable_push_whitelist: v.boolean(),
  push_whitelist_usernames: names(),
  push_whitelist_teams: names(),
  push_whitelist_deploy_keys: v.boolean(),
  enable_merge_whitelist: v.boolean(),
  merge_whitelist_usernames: names(),
  merge_whitelist_teams: names(),
  enable_status_check: v.boolean(),
  status_check_contexts: names(),
  required_approvals: int64(),
  enable_approvals_whitelist: v.boolean(),
  approvals_whitelist_username: names(),
  approvals_whitelist_teams: names(),
  block_on_rejected_reviews: v.boolean(),
  block_on_official_review_requests: v.boolean(),
  block_on_outdated_branch: v.boolean(),
  dismiss_stale_approvals: v.boolean(),
  ignore_stale_approvals: v.boolean(),
  require_signed_commits: v.boolean(),
  protected_file_patterns: v.string(),
  unprotected_file_patterns: v.string(),
  apply_to_admins: v.boolean(),
  created_at: dateTime(),
  updated_at: dateTime(),
});

const optionFields = {
  enable_push: v.optional(v.boolean()),
  enable_push_whitelist: v.optional(v.boolean()),
  push_whitelist_usernames: v.optional(names()),
  push_whitelist_teams: v.optional(names()),
  push_whitelist_deploy_keys: v.optional(v.boolean()),
  enable_merge_whitelist: v.optional(v.boolean()),
  merge_whitelist_usernames: v.optional(names()),
  merge_whitelist_teams: v.optional(names()),
  enable_status_check: v.optional(v.boolean()),
  status_check_contexts: v.optional(statusContexts()),
  required_approvals: v.optional(int64()),
  enable_approvals_whitelist: v.optional(v.boolean()),
  approvals_whitelist_username: v.optional(names()),
  approvals_whitelist_teams: v.optional(names()),
  block_on_rejected_reviews: v.optional(v.boolean()),
  block_on_official_review_requests: v.optional(v.boolean()),
  block_on_outdated_branch: v.optional(v.boolean()),
  dismiss_stale_approvals: v.optional(v.boolean()),
  ignore_stale_approvals: v.optional(v.boolean()),
  require_signed_commits: v.optional(v.boolean()),
  protected_file_patterns: v.optional(v.string()),
  unprotected_file_patterns: v.optional(v.string()),
  apply_to_admins: v.optional(v.boolean()),
};

/** Body of `POST /repos/{owner}/{repo}/branch_protections`; the rule name may be a glob. */
export const CreateBranchProtectionOption = v.object({
  /** Deprecated: used as the rule name when `rule_name` is empty. */
  branch_name: v.optional(v.string()),
  rule_name: v.optional(v.string()),
  ...optionFields,
});

/** Body of `PATCH /repos/{owner}/{repo}/branch_protections/{name}`: only fields that are set change. */
export const EditBranchProtectionOption = v.object(optionFields);
