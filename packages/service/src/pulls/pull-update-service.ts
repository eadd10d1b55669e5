import { ConflictError, InvalidArgumentError, PermissionDeniedError } from "@kiln/domain";
import {
  evaluateRefUpdate,
  GitConflictError,
  GitMergeConflictError,
  GitMergeRefusedError,
  gitRefUpdateFacts,
  updateBranchFromBase,
  updateForkBranchFromBase,
} from "@kiln/git";
import type { RepoAccess } from "../access/access-service.js";
import { writesCode } from "../access/pull-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import type { BranchProtectionService } from "../git/branch-protection-service.js";
import { userSignature } from "../git/commit-identity.js";
import { mayMerge, mayPush } from "../git/protection-rules.js";
import type { PushPolicyService } from "../repos/push-policy-service.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import type { PullChecker } from "./pull-check.js";
import type { PullService } from "./pull-service.js";

/**
 * Bringing a pull request's head up to date with its base (Forgejo's UpdatePullRequest): a merge
 * commit of the base into the head, or a rebase of the head onto the base, written by real git on
 * the head branch (in a fork, for a pull request from one), then the pull request checked again.
 */
export class PullUpdateService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
    private readonly pullService: PullService,
    private readonly protections: BranchProtectionService,
    private readonly checker: PullChecker,
    private readonly pushPolicies: PushPolicyService,
  ) {}

  async update(repoAccess: RepoAccess, index: number, style: "merge" | "rebase"): Promise<void> {
    const doer = writerOf(repoAccess);
    const { issue, pull } = await this.pullService.get(repoAccess, index);
    if (pull.hasMerged) throw new InvalidArgumentError("pull request is already merged");
    if (issue.isClosed) throw new InvalidArgumentError("pull request is closed");
    // The head branch lives in the head repository; a fork the caller may not read is not theirs to update.
    const head = await this.pullService.headAccess(repoAccess, pull);
    if (!head) throw new PermissionDeniedError("");
    // Forgejo's IsUserAllowedToUpdate: the head branch's own rule decides, as if the head were the
    // base; with `allow_maintainer_edit`, what the caller may do in the base counts as well.
    const rule = await this.protections.ruleFor(head.repo, pull.headBranch);
    const rules = rule ? [rule] : [];
    const facts = await this.protections.pusherFacts(head.repo, doer, head, rules);
    const pushAllowed = rule ? mayPush(rule.settings, facts) : true;
    const mayMergeAs = async (access: RepoAccess) => {
      if (!rule) return writesCode(access);
      const as = access === head ? facts : await this.protections.pusherFacts(head.repo, doer, access, rules);
      return mayMerge(rule.settings, as);
    };
    const mergeAllowed =
      pushAllowed &&
      ((await mayMergeAs(head)) ||
        (pull.allowMaintainerEdit && head !== repoAccess && (await mayMergeAs(repoAccess))));
    const rebaseAllowed = mergeAllowed && !rule && head.repo.pullsConfig.allowRebaseUpdate;
    if (style === "rebase" ? !rebaseAllowed : !mergeAllowed) throw new PermissionDeniedError("");
    if (pull.commitsBehind === 0) throw new InvalidArgumentError(`HeadBranch of PR ${index} is up to date`);
    const git = await this.repos.git(repoAccess.repo);
    const headGit = head === repoAccess ? git : await this.repos.git(head.repo);
    // The new head must pass the head branch's protection as a push of it would: signatures,
    // protected files, force pushes (a rebase), the head owner's quota.
    const policy = await this.pushPolicies.forPush(head.repo, doer);
    const ref = `refs/heads/${pull.headBranch}`;
    try {
      // A push of the head branch by the doer (RefUpdates), journalled once the policy allowed it.
      await this.refs.move(head.repo, doer.id, {
        kind: "push",
        move: (beforeMove) => {
          const check = async (oldSha: string, newSha: string) => {
            const verdict = await evaluateRefUpdate(
              policy,
              { ref, oldSha, newSha },
              gitRefUpdateFacts(headGit.gitdir),
            );
            if (!verdict.allowed) return verdict.message;
            await beforeMove([{ ref, oldSha, newSha }]);
            return undefined;
          };
          const request = {
            check,
            style,
            headBranch: pull.headBranch,
            headSha: pull.headCommitId,
            baseSha: pull.baseCommitId,
            message: `Merge branch '${pull.baseBranch}' into ${pull.headBranch}`,
            doer: { ...userSignature(doer, this.ctx.settings), date: new Date() },
          };
          return head === repoAccess
            ? updateBranchFromBase(git, request)
            : updateForkBranchFromBase(git, headGit, request);
        },
        updatesOf: (newHead) => [{ ref, oldSha: pull.headCommitId, newSha: newHead }],
      });
    } catch (error) {
      if (error instanceof GitMergeConflictError) {
        throw new ConflictError(`${style === "rebase" ? "rebase" : "merge"} failed because of conflict`);
      }
      if (error instanceof GitConflictError)
        throw new ConflictError("the head branch changed meanwhile; try again");
      if (error instanceof GitMergeRefusedError) throw new PermissionDeniedError(error.message);
      throw error;
    }
    await this.checker.current(repoAccess.repo, pull, false);
  }
}
