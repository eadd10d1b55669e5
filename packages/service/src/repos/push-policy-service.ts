import type { Repository, User } from "@kiln/domain";
import type { PushLimits, PushPolicy } from "@kiln/git";
import type { BranchProtectionService } from "../git/branch-protection-service.js";
import { toBranchRulePolicy } from "../git/protection-rules.js";
import type { TagProtectionService } from "../git/tag-protection-service.js";
import type { QuotaService } from "../quota/quota-service.js";
import type { LfsLockService } from "./lfs-lock-service.js";

/**
 * What a pusher may do to a repository's branches, as the git transport enforces it when its
 * pre-receive hook asks: the default branch can never be deleted by a push, and every branch protection
 * rule is turned into what it allows this pusher (push per the whitelist or write access; never
 * force-push, delete or change protected files; signed commits when required), and every tag
 * protection rule into whether it allows this pusher (Forgejo's preReceiveTag). With
 * `[quota] ENFORCE`, a repository whose owner is over quota (`size:repos:all`, as Forgejo's
 * pre-receive checks) takes no update but deletions; the verdict reads the owner's ledger row.
 * Files other users hold Git LFS locks on may not be changed by the push.
 * Every push, a wiki's too, is held to `[repository] MAX_REFS` and `MAX_FILES`.
 */
export class PushPolicyService {
  constructor(
    private readonly protections: BranchProtectionService,
    private readonly quota: QuotaService,
    private readonly tagProtections?: TagProtectionService,
    private readonly lfsLocks?: LfsLockService,
    private readonly limits?: PushLimits,
  ) {}

  /**
   * The policy for a push to a repository's wiki: no branch protection, the push limits, and,
   * with `[quota] ENFORCE`, no update but deletions when the owner is over quota for
   * `size:repos:all`, the subject Forgejo's pre-receive hook checks for every push, a wiki's
   * included (`size:wiki` itself is never over quota, docs/quota.md).
   */
  async forWikiPush(repo: Repository): Promise<PushPolicy> {
    const quotaExceeded = await this.quota.exceeds(
      { id: repo.ownerId, name: repo.ownerName },
      "size:repos:all",
    );
    return {
      branchRules: [],
      ...(quotaExceeded ? { quotaExceeded } : {}),
      ...(this.limits ? { limits: this.limits } : {}),
    };
  }

  /** The policy for one push by `pusher`, computed before git runs. */
  async forPush(repo: Repository, pusher: User): Promise<PushPolicy> {
    const owner = { id: repo.ownerId, name: repo.ownerName };
    const [rules, quotaExceeded, tagRules, locks] = await Promise.all([
      this.protections.list(repo),
      this.quota.exceeds(owner, "size:repos:all"),
      this.tagProtections?.forUser(repo, pusher) ?? [],
      this.lfsLocks?.heldByOthers(repo, pusher.id) ?? [],
    ]);
    const base = {
      defaultBranch: repo.defaultBranch,
      ...(this.limits ? { limits: this.limits } : {}),
      ...(quotaExceeded ? { quotaExceeded } : {}),
      ...(tagRules.length > 0 ? { tagRules } : {}),
      ...(locks.length > 0 ? { lfsLocks: locks.map((l) => ({ path: l.path, owner: l.ownerName })) } : {}),
    };
    if (rules.length === 0) return { ...base, branchRules: [] };
    const facts = await this.protections.pusherFacts(repo, pusher);
    return { ...base, branchRules: rules.map((rule) => toBranchRulePolicy(rule, facts)) };
  }
}
