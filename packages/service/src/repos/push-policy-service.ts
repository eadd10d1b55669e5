import type { Repository, User } from "@kiln/domain";
import type { PushPolicy } from "@kiln/git";
import type { ServiceContext } from "../context.js";

/**
 * What a pusher may do to a repository's branches, as the git transport's pre-receive hook
 * enforces it. The default branch can never be deleted by a push; branch protection rules add
 * their own limits here.
 */
export class PushPolicyService {
  constructor(private readonly ctx: ServiceContext) {}

  async forPush(repo: Repository, _pusher: User): Promise<PushPolicy> {
    void this.ctx;
    return { defaultBranch: repo.defaultBranch, branchRules: [] };
  }
}
