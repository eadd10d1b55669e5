import { ConflictError, InvalidArgumentError, PermissionDeniedError } from "@kiln/domain";
import {
  evaluateRefUpdate,
  GitConflictError,
  GitMergeConflictError,
  GitMergeRefusedError,
  gitRefUpdateFacts,
  updateBranchFromBase,
} from "@kiln/git";
import type { RepoAccess } from "../access/access-service.js";
import type { ServiceContext } from "../context.js";
import type { BranchProtectionService } from "../git/branch-protection-service.js";
import { userSignature } from "../git/commit-identity.js";
import { mayMerge, mayPush } from "../git/protection-rules.js";
import { actorOf } from "../issues/issue-support.js";
import { canWrite } from "../permissions/repo-permission.js";
import type { PushPolicyService } from "../repos/push-policy-service.js";
import type { RepoService } from "../repos/repo-service.js";
import type { PullChecker } from "./pull-check.js";
import type { PullService } from "./pull-service.js";

/**
 * Bringing a pull request's head up to date with its base (Forgejo's UpdatePullRequest): a merge
 * commit of the base into the head, or a rebase of the head onto the base, written by real git on
 * the head branch, then the pull request checked again.
 */
export class PullUpdateService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly pullService: PullService,
    private readonly protections: BranchProtectionService,
    private readonly checker: PullChecker,
    private readonly pushPolicies: PushPolicyService,
  ) {}

  async update(ctx: RepoAccess, index: number, style: "merge" | "rebase"): Promise<void> {
    const doer = actorOf(ctx);
    const { issue, pull } = await this.pullService.get(ctx, index);
    if (pull.hasMerged) throw new InvalidArgumentError("pull request is already merged");
    if (issue.isClosed) throw new InvalidArgumentError("pull request is closed");
    // Forgejo's IsUserAllowedToUpdate: the head branch's own rule decides, as if the head were the base.
    const rule = await this.protections.ruleFor(ctx.repo, pull.headBranch);
    const facts = await this.protections.pusherFacts(ctx.repo, doer, ctx, rule ? [rule] : []);
    const writer = canWrite(ctx.permission, "repo.code");
    const pushAllowed = rule ? mayPush(rule.settings, facts) : true;
    const mergeAllowed = pushAllowed && (rule ? mayMerge(rule.settings, facts) : writer);
    const rebaseAllowed = mergeAllowed && !rule && ctx.repo.pullsConfig.allowRebaseUpdate;
    if (style === "rebase" ? !rebaseAllowed : !mergeAllowed) throw new PermissionDeniedError("");
    if (pull.commitsBehind === 0) throw new InvalidArgumentError(`HeadBranch of PR ${index} is up to date`);
    const git = await this.repos.git(ctx.repo);
    // The new head must pass the head branch's protection as a push of it would: signatures,
    // protected files, force pushes (a rebase), the owner's quota.
    const policy = await this.pushPolicies.forPush(ctx.repo, doer);
    const check = async (oldSha: string, newSha: string) => {
      const ref = `refs/heads/${pull.headBranch}`;
      const verdict = await evaluateRefUpdate(policy, { ref, oldSha, newSha }, gitRefUpdateFacts(git.gitdir));
      return verdict.allowed ? undefined : verdict.message;
    };
    const endPush = this.checker.pushes.begin(ctx.repo.id, doer.id);
    let newHead: string;
    try {
      newHead = await updateBranchFromBase(git, {
        check,
        style,
        headBranch: pull.headBranch,
        headSha: pull.headCommitId,
        baseSha: pull.baseCommitId,
        message: `Merge branch '${pull.baseBranch}' into ${pull.headBranch}`,
        doer: { ...userSignature(doer, this.ctx.settings), date: new Date() },
      });
    } catch (error) {
      if (error instanceof GitMergeConflictError) {
        throw new ConflictError(`${style === "rebase" ? "rebase" : "merge"} failed because of conflict`);
      }
      if (error instanceof GitConflictError)
        throw new ConflictError("the head branch changed meanwhile; try again");
      if (error instanceof GitMergeRefusedError) throw new PermissionDeniedError(error.message);
      throw error;
    } finally {
      endPush();
    }
    await this.repos.afterPush(
      ctx.repo,
      [{ ref: `refs/heads/${pull.headBranch}`, oldSha: pull.headCommitId, newSha: newHead }],
      doer.id,
    );
    await this.checker.current(ctx.repo, pull, false);
  }
}
