import type { Repository, User } from "@kiln/domain";
import type { PushPolicy } from "@kiln/git";
import type { BranchProtectionService } from "../git/branch-protection-service.js";
import { toBranchRulePolicy } from "../git/protection-rules.js";

/**
 * What a pusher may do to a repository's branches, as the git transport's pre-receive hook
 * enforces it: the default branch can never be deleted by a push, and every branch protection
 * rule is turned into what it allows this pusher (push per the whitelist or write access; never
 * force-push, delete or change protected files; signed commits when required).
 */
export class PushPolicyService {
  constructor(private readonly protections: BranchProtectionService) {}

  /** The policy for one push by `pusher`, computed before git runs. */
  async forPush(repo: Repository, pusher: User): Promise<PushPolicy> {
    const rules = await this.protections.list(repo);
    if (rules.length === 0) return { defaultBranch: repo.defaultBranch, branchRules: [] };
    const facts = await this.protections.pusherFacts(repo, pusher);
    return {
      defaultBranch: repo.defaultBranch,
      branchRules: rules.map((rule) => toBranchRulePolicy(rule, facts)),
    };
  }
}
