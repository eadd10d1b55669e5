import {
  AlreadyExistsError,
  CommentType,
  ConflictError,
  InvalidArgumentError,
  isMergeStyleAllowed,
  type MergeStyleName,
  NotFoundError,
  PermissionDeniedError,
  type PullRequest,
  PullStatus,
  type User,
} from "@kiln/domain";
import {
  branchTip,
  changedPaths,
  commitObjectsBetween,
  firstUnsignedCommit,
  GitConflictError,
  GitMergeConflictError,
  GitMergeRefusedError,
  type GitRepository,
  getCommitInfos,
  isAncestor,
  KeyedMutex,
  mergeIntoBranch,
  parseFilePatterns,
} from "@kiln/git";
import { comments, issueRelations, pulls, repositories, reviews, users } from "@kiln/storage";
import type { AccessService, RepoAccess } from "../access/access-service.js";
import { actorFor } from "../access/actor.js";
import { mayMerge } from "../access/branch-rules.js";
import { mayCancelAutoMerge, mayDeleteHeadBranch, mayForceMerge } from "../access/merge-rules.js";
import { writerOf } from "../access/repo-writer.js";
import type { ServiceContext } from "../context.js";
import { describePushes } from "../events/ref-events.js";
import type { BranchProtectionService } from "../git/branch-protection-service.js";
import { userSignature } from "../git/commit-identity.js";
import type { CommitVerifier } from "../keys/commit-verifier.js";
import { crashPoint } from "../repos/crash-point.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import { mergeFinisher, recordMerged } from "./merge-record.js";
import { isWorkInProgress, mergeMessage, protectionRefusal, stateRefusal } from "./merge-rules.js";
import { closeOrphans, deleteMergedHead, mergedHeadFinisher } from "./merged-head.js";
import type { PullChecker } from "./pull-check.js";
import type { PullService } from "./pull-service.js";
import { statusChecksOf } from "./status-checks.js";

/** `POST …/pulls/{index}/merge`, in service terms. */
export interface MergeInput {
  readonly style: MergeStyleName;
  readonly title?: string | undefined;
  readonly message?: string | undefined;
  readonly mergeCommitId?: string | undefined;
  readonly headCommitId?: string | undefined;
  readonly forceMerge?: boolean | undefined;
  readonly mergeWhenChecksSucceed?: boolean | undefined;
  readonly deleteBranchAfterMerge?: boolean | undefined;
}

/** What a merge request did: merged now, or scheduled for when it may be. */
export type MergeOutcome = "merged" | "scheduled";

const refused = (reason: string) => new InvalidArgumentError(reason);

/**
 * Merging pull requests (Forgejo's MergePullRequest, CheckPullMergeable and services/pull/merge):
 * every refusal is 422 naming its reason (the specification's rule; Forgejo says 405), a stale
 * `head_commit_id` is 409. Merges of one repository run one at a time, from the checks to the
 * stored result, so two merges into the same base never race; the git work moves the base only
 * when it all succeeded, so a failed merge leaves the repository as it was.
 */
export class MergeService {
  readonly #locks = new KeyedMutex();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
    private readonly pulls: PullService,
    private readonly protections: BranchProtectionService,
    private readonly access: AccessService,
    private readonly checker: PullChecker,
    private readonly verifier?: Pick<CommitVerifier, "firstUnverified">,
  ) {
    repos.journal.register("merge", mergeFinisher(ctx, repos));
    repos.journal.register("merged-head", mergedHeadFinisher(ctx, refs, checker));
  }

  /** Whether the pull request was merged (`GET …/merge`: 204 or 404). */
  async isMerged(access: RepoAccess, index: number): Promise<boolean> {
    return (await this.pulls.get(access, index)).pull.hasMerged;
  }

  /** Merges, or schedules the merge, of the pull request `index` for the caller. */
  async merge(access: RepoAccess, index: number, input: MergeInput): Promise<MergeOutcome> {
    const doer = writerOf(access);
    return this.#locks.run(`repo:${access.repo.id}`, async () => {
      const { issue, pull } = await this.pulls.get(access, index);
      if (pull.hasMerged) throw refused("the pull request is already merged");
      if (issue.isClosed) throw refused("the pull request is closed");
      const rule = await this.protections.ruleFor(access.repo, pull.baseBranch);
      const facts = await this.protections.pusherFacts(access.repo, doer, access, rule ? [rule] : []);
      if (!mayMerge(rule?.settings, facts)) throw refused("User not allowed to merge PR");
      const git = await this.repos.git(access.repo);
      if (input.style === "manually-merged") {
        await this.mergedManually(access, doer, git, pull, input.mergeCommitId);
        return "merged";
      }
      if (isWorkInProgress(issue.title)) throw refused("Work in progress PRs cannot be merged");
      const stateReason = stateRefusal(pull);
      if (stateReason) throw refused(stateReason);
      const bypass =
        input.mergeWhenChecksSucceed === true ||
        (input.forceMerge === true && mayForceMerge(access, rule?.settings));
      if (rule && !bypass) {
        const verdict = await reviews.reviewVerdict(
          this.ctx.db,
          pull.issueId,
          rule.settings.ignoreStaleApprovals,
        );
        // Protected files are matched against the rule as it is now, which may be newer than the check.
        const patterns = parseFilePatterns(rule.settings.protectedFilePatterns);
        const changedProtectedFiles =
          patterns.globs.length > 0
            ? (await changedPaths(git, pull.mergeBase, pull.headCommitId)).filter((path) =>
                patterns.matches(path),
              )
            : [];
        const checks = await statusChecksOf(this.ctx.db, access.repo.id, pull.headCommitId, rule);
        const reason = protectionRefusal(rule, { ...pull, changedProtectedFiles }, verdict, checks);
        if (reason) throw refused(`not allowed to merge [reason: ${reason}]`);
      }
      if (rule?.settings.requireSignedCommits) {
        if (input.style !== "fast-forward-only") {
          throw refused(
            "won't sign: nokey (the base branch requires signed commits and Kiln has no signing key)",
          );
        }
        // A fast-forward adds no commit: each it brings must be signed, and verify when Kiln can check.
        const unsigned = this.verifier
          ? await this.verifier.firstUnverified(
              await commitObjectsBetween(git, pull.mergeBase, pull.headCommitId),
            )
          : await firstUnsignedCommit(git, pull.mergeBase, pull.headCommitId);
        if (unsigned)
          throw refused(`branch ${pull.baseBranch} is protected from unverified commit ${unsigned}`);
      }
      if (await issueRelations.hasOpenBlockers(this.ctx.db, issue.id)) {
        throw refused("cannot merge this pull request because it still has open dependencies");
      }
      if (input.mergeWhenChecksSucceed) {
        await this.schedule(doer, pull, issue.title, input);
        return "scheduled";
      }
      if (!isMergeStyleAllowed(access.repo.pullsConfig, input.style)) {
        throw refused(`${input.style} is not an allowed merge style for this repository`);
      }
      if (input.headCommitId && input.headCommitId !== pull.headCommitId)
        throw new ConflictError("head out of date");
      await this.mergeNow(access, doer, git, { pull, title: issue.title, posterId: issue.posterId }, input);
      return "merged";
    });
  }

  /**
   * Merges the pull request now if a merge is scheduled for it (after an approval or a
   * dismissal): as its scheduler, with the rules checked again and the stored style, message and
   * branch deletion. A refusal leaves the merge scheduled and is only logged; true when merged.
   */
  async tryScheduled(access: RepoAccess, index: number): Promise<boolean> {
    try {
      const { pull } = await this.pulls.get(access, index);
      const scheduled = await pulls.findAutoMerge(this.ctx.db, pull.id);
      const scheduler = scheduled && (await users.findUserById(this.ctx.db, scheduled.doerId));
      if (!scheduled || !scheduler) return false;
      const asScheduler = await this.access.repoById(actorFor(scheduler), access.repo.id);
      await this.merge(asScheduler, index, {
        style: scheduled.mergeStyle as MergeStyleName,
        // The stored message is whole: given as the title, it is used as it is.
        title: scheduled.message,
        deleteBranchAfterMerge: scheduled.deleteBranchAfterMerge,
      });
      return true;
    } catch (err) {
      this.ctx.logger.info(
        { err: (err as Error).message, repo: access.repo.id, index },
        "scheduled merge not done yet",
      );
      return false;
    }
  }

  /**
   * After a status was reported for `sha`: the pull requests with that head and a scheduled merge
   * are merged if they now may be (Forgejo's StartPRCheckAndAutoMergeBySHA).
   */
  async statusReported(access: RepoAccess, sha: string): Promise<void> {
    for (const pull of await pulls.scheduledPullsWithHead(this.ctx.db, access.repo.id, sha)) {
      await this.tryScheduled(access, pull.index);
    }
  }

  /** Cancels a scheduled merge (`DELETE …/merge`): its scheduler or a repository admin. */
  async cancelScheduled(access: RepoAccess, index: number): Promise<void> {
    const doer = writerOf(access);
    const { pull } = await this.pulls.get(access, index);
    const scheduled = await pulls.findAutoMerge(this.ctx.db, pull.id);
    if (!scheduled) throw new NotFoundError();
    if (!mayCancelAutoMerge(access, scheduled.doerId)) {
      throw new PermissionDeniedError("user has no permission to cancel the scheduled auto merge");
    }
    await this.ctx.db.transaction().execute(async (trx) => {
      if (!(await pulls.deleteAutoMerge(trx, pull.id))) return;
      await comments.insertComment(
        trx,
        { issueId: pull.issueId, type: CommentType.pullCancelScheduledMerge, posterId: doer.id },
        new Date(),
      );
    });
  }

  /** How a merge message names the head: its branch, or `owner/repo:branch` for a fork's (as Forgejo). */
  private async headLabel(pull: PullRequest): Promise<string> {
    if (pull.headRepoId === pull.baseRepoId) return pull.headBranch;
    const head =
      pull.headRepoId === null
        ? undefined
        : await repositories.findRepositoryById(this.ctx.db, pull.headRepoId);
    return `${head ? `${head.ownerName}/${head.name}` : "<deleted>"}:${pull.headBranch}`;
  }

  private async schedule(doer: User, pull: PullRequest, title: string, input: MergeInput) {
    const message = mergeMessage(
      input.style,
      pull,
      title,
      { title: input.title, message: input.message },
      await this.headLabel(pull),
    );
    await this.ctx.db.transaction().execute(async (trx) => {
      const inserted = await pulls.insertAutoMerge(
        trx,
        {
          pullId: pull.id,
          doerId: doer.id,
          mergeStyle: input.style,
          message,
          deleteBranchAfterMerge: input.deleteBranchAfterMerge === true,
        },
        new Date(),
      );
      if (!inserted) {
        throw new AlreadyExistsError(
          `pull request is already scheduled to auto merge when checks succeed [pull_id: ${pull.id}]`,
        );
      }
      await comments.insertComment(
        trx,
        { issueId: pull.issueId, type: CommentType.pullScheduledMerge, posterId: doer.id },
        new Date(),
      );
    });
  }

  /** Runs the merge in git, then records it (merged, closed, timeline, counters, notifications) in one transaction. */
  private async mergeNow(
    access: RepoAccess,
    doer: User,
    git: GitRepository,
    target: { readonly pull: PullRequest; readonly title: string; readonly posterId: number | null },
    input: MergeInput,
  ): Promise<void> {
    const { pull } = target;
    const style = input.style as Exclude<MergeStyleName, "manually-merged">;
    const sig = { ...userSignature(doer, this.ctx.settings), date: new Date() };
    let squashAuthor = sig;
    let message = mergeMessage(
      style,
      pull,
      target.title,
      { title: input.title, message: input.message },
      await this.headLabel(pull),
    );
    if (style === "squash" && target.posterId !== null && target.posterId !== doer.id) {
      const poster = await users.findUserById(this.ctx.db, target.posterId);
      if (poster) {
        const author = userSignature(poster, this.ctx.settings);
        squashAuthor = { ...author, date: sig.date };
        message += `\n\nCo-authored-by: ${author.name} <${author.email}>\nCo-committed-by: ${author.name} <${author.email}>`;
      }
    }
    const baseSha = pull.baseCommitId;
    const ref = `refs/heads/${pull.baseBranch}`;
    // The move is journalled before the base branch moves (RefUpdates): a crash after it still
    // merges the pull request; its record is the merge's own.
    try {
      await this.refs.moveRecorded(access.repo, doer.id, {
        kind: "merge",
        facts: { pullId: pull.id, detail: { style } },
        move: (beforeMove) =>
          mergeIntoBranch(git, {
            style,
            baseBranch: pull.baseBranch,
            baseSha,
            headSha: pull.headCommitId,
            message,
            doer: sig,
            squashAuthor,
            beforeMove: async (newSha) => {
              await beforeMove([{ ref, oldSha: baseSha, newSha }]);
              crashPoint("merge-before-move");
            },
          }),
        updatesOf: (merged) => [{ ref, oldSha: baseSha, newSha: merged }],
        record: async (merged, _updates, operation) => {
          crashPoint("merge-after-move");
          const push = { ref, oldSha: baseSha, newSha: merged };
          await recordMerged(this.ctx, this.repos.journal, access.repo, doer, pull, {
            commitId: merged,
            at: new Date(),
            status: PullStatus.mergeable,
            push: { update: push, commits: await describePushes(git, [push]) },
            ...(operation ? { operation } : {}),
          });
        },
      });
    } catch (error) {
      if (error instanceof GitMergeConflictError) {
        throw refused(`there are merge conflicts [files: ${error.files.join(", ")}]`);
      }
      if (error instanceof GitMergeRefusedError)
        throw refused(`Not possible to fast-forward: ${error.message}`);
      if (error instanceof GitConflictError) throw new ConflictError("merge push out of date");
      throw error;
    }
    if (input.deleteBranchAfterMerge) await this.deleteHeadBranch(access, doer, pull);
  }

  /**
   * Records a merge done outside Kiln (`manually-merged`): the commit must be a full id that is
   * in the base branch's history; the merge time is its author's.
   */
  private async mergedManually(
    access: RepoAccess,
    doer: User,
    git: GitRepository,
    pull: PullRequest,
    commitId: string | undefined,
  ): Promise<void> {
    if (!isMergeStyleAllowed(access.repo.pullsConfig, "manually-merged")) {
      throw refused("manually-merged is not an allowed merge style for this repository");
    }
    const baseTip = await branchTip(git, pull.baseBranch);
    const valid =
      commitId !== undefined &&
      /^[0-9a-f]{40}$/.test(commitId) &&
      baseTip !== undefined &&
      (await isAncestor(git, commitId, baseTip).catch(() => false));
    if (!valid || commitId === undefined) throw refused("Wrong commit ID");
    const [commit] = await getCommitInfos(git, [commitId]);
    if (!commit) throw refused("Wrong commit ID");
    await recordMerged(this.ctx, this.repos.journal, access.repo, doer, pull, {
      commitId,
      at: new Date(commit.author.timestamp * 1000),
      status: PullStatus.manuallyMerged,
    });
  }

  /**
   * `delete_branch_after_merge`, after the merge (its refusals come with the merge done, as in
   * Forgejo): skipped while another open pull request uses the branch; the pull requests that
   * targeted it move to this one's base. A fork's branch is deleted in the fork, for a doer who may
   * write there (nothing happens when the fork is gone or hidden from the doer).
   */
  private async deleteHeadBranch(base: RepoAccess, doer: User, pull: PullRequest): Promise<void> {
    const ctx = await this.pulls.headAccess(base, pull);
    if (!ctx) return;
    const git = await this.repos.git(ctx.repo);
    if (await pulls.otherOpenPullsWithHead(this.ctx.db, ctx.repo.id, pull.headBranch, pull.id)) return;
    if (!mayDeleteHeadBranch(ctx)) {
      throw new PermissionDeniedError("insufficient permission to delete head branch");
    }
    if (pull.headBranch === ctx.repo.defaultBranch)
      throw new PermissionDeniedError("the head branch is the default branch");
    if (await this.protections.ruleFor(ctx.repo, pull.headBranch)) {
      throw new PermissionDeniedError("the head branch is protected");
    }
    // The pull requests based on the branch move to this one's base first (Forgejo's
    // RetargetChildrenOnMerge), unless that would duplicate an open pull request or join a branch
    // with itself; those stay, and are closed with their branch.
    const children =
      ctx.repo.id === base.repo.id
        ? await pulls.openPullsWithBase(this.ctx.db, ctx.repo.id, pull.headBranch)
        : [];
    const now = new Date();
    await this.refs.credited(ctx.repo.id, doer.id, async () => {
      await this.ctx.db.transaction().execute(async (trx) => {
        for (const child of children) {
          const pair = {
            baseRepoId: ctx.repo.id,
            baseBranch: pull.baseBranch,
            headRepoId: child.headRepoId ?? ctx.repo.id,
            headBranch: child.headBranch,
          };
          if (child.headBranch === pull.baseBranch || (await pulls.findOpenPullFor(trx, pair))) continue;
          await pulls.updatePull(trx, child.id, { baseBranch: pull.baseBranch });
          await comments.insertComment(
            trx,
            {
              issueId: child.issueId,
              type: CommentType.changeTargetBranch,
              posterId: doer.id,
              oldRef: pull.headBranch,
              newRef: pull.baseBranch,
            },
            now,
          );
        }
      });
      if (!(await deleteMergedHead(this.refs, ctx.repo, git, doer.id, pull))) return;
      // Those left on the deleted branch are closed now, credited to the doer.
      await closeOrphans(this.ctx, this.checker, ctx.repo, pull.headBranch);
    });
  }
}
