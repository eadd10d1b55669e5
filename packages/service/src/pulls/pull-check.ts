import { CommentType, type PullRequest, PullStatus, type Repository } from "@kiln/domain";
import {
  aheadBehind,
  branchTip,
  changedFiles,
  type GitRepository,
  isAncestor,
  mergeBase,
  mergeTree,
  parseFilePatterns,
  pullHeadTip,
  rangeCommits,
  setPullHead,
  treeOf,
} from "@kiln/git";
import { comments, notifications, type PullState, pulls, reviews } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { BranchProtectionService } from "../git/branch-protection-service.js";
import type { RepoService } from "../repos/repo-service.js";

/** Forgejo's text for approvals dismissed by a push (`dismiss_stale_approvals`). */
const STALE_DISMISSAL =
  "New commits pushed, approval review dismissed automatically according to repository settings";

/**
 * What a push to a pull request's head did, as Forgejo records it in a `pull_push` comment: the
 * new commits (oldest first), or the old and new heads of a force push.
 */
async function pushedCommits(
  git: GitRepository,
  oldHead: string,
  newHead: string,
): Promise<{ is_force_push: boolean; commit_ids: string[] }> {
  if (!(await isAncestor(git, oldHead, newHead).catch(() => false))) {
    return { is_force_push: true, commit_ids: [oldHead, newHead] };
  }
  const { commits } = await rangeCommits(git, oldHead, newHead, { skip: 0, limit: 250 });
  return { is_force_push: false, commit_ids: commits.map((commit) => commit.sha).reverse() };
}

/** The commits a pull request joins right now: its base branch's tip and its head. */
export interface PullTips {
  /** Undefined when the base branch is gone. */
  readonly base: string | undefined;
  /** The head branch's tip, or the last head Kiln kept (`refs/pull/N/head`) once the branch is gone. */
  readonly head: string | undefined;
}

/**
 * Works out what merging a pull request would give (Forgejo's testPatch): the merge base, whether
 * the head is already in the base (`ancestor`), conflicts and their files (`git merge-tree`),
 * whether merging changes nothing (`empty`), the protected files it changes, how far the two
 * branches diverged and the size of the change. The result is stored with the two commits it was
 * computed for, so any reader can tell whether it is still current and refresh it: a push that
 * reached git without Kiln hearing of it (a crash between the two) cannot leave it wrong.
 */
export class PullChecker {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly protections: BranchProtectionService,
  ) {}

  /** The current tips of a pull request's base and head, in the base repository. */
  async tips(
    git: GitRepository,
    pull: Pick<PullRequest, "baseBranch" | "headBranch" | "index">,
  ): Promise<PullTips> {
    const [base, head] = await Promise.all([
      branchTip(git, pull.baseBranch),
      branchTip(git, pull.headBranch),
    ]);
    return { base, head: head ?? (await pullHeadTip(git, pull.index)) };
  }

  /** The state of merging `head` into `base` now. */
  async compute(
    repo: Repository,
    git: GitRepository,
    baseBranch: string,
    tips: PullTips,
  ): Promise<PullState> {
    const { base, head } = tips;
    const none = {
      headCommitId: head ?? "",
      baseCommitId: base ?? "",
      conflictedFiles: [],
      changedProtectedFiles: [],
      commitsAhead: 0,
      commitsBehind: 0,
      additions: 0,
      deletions: 0,
      changedFiles: 0,
    };
    if (!base || !head) return { ...none, mergeBase: "", status: PullStatus.error };
    const [common, counts, merged, rule] = await Promise.all([
      mergeBase(git, base, head),
      aheadBehind(git, base, head),
      mergeTree(git, base, head),
      this.protections.ruleFor(repo, baseBranch),
    ]);
    const from = common ?? base;
    const files = await changedFiles(git, from, head);
    const patterns = parseFilePatterns(rule?.settings.protectedFilePatterns);
    const state = {
      ...none,
      mergeBase: from,
      commitsAhead: counts.ahead,
      commitsBehind: counts.behind,
      additions: files.reduce((sum, file) => sum + file.additions, 0),
      deletions: files.reduce((sum, file) => sum + file.deletions, 0),
      changedFiles: files.length,
      changedProtectedFiles:
        patterns.globs.length > 0
          ? files
              .map((file) => file.filename.toLowerCase())
              .filter((name) => patterns.matches(name))
              .slice(0, 10)
          : [],
    };
    if (head === from) return { ...state, status: PullStatus.ancestor };
    if (!merged.clean) return { ...state, status: PullStatus.conflict, conflictedFiles: merged.conflicts };
    const baseTree = await treeOf(git, base);
    return { ...state, status: merged.tree === baseTree ? PullStatus.empty : PullStatus.mergeable };
  }

  /**
   * The pull request with its state current: when its base or head moved since it was checked
   * (or it never was), it is checked again, `refs/pull/N/head` follows the head, and the result is
   * stored. Merged and closed pull requests keep the state they had.
   */
  async current(
    repo: Repository,
    pull: PullRequest,
    closed: boolean,
    pusherId: number | null = null,
  ): Promise<PullRequest> {
    if (pull.hasMerged || closed) return pull;
    const git = await this.repos.git(repo);
    const tips = await this.tips(git, pull);
    if (
      tips.base === pull.baseCommitId &&
      tips.head === pull.headCommitId &&
      pull.status !== PullStatus.checking
    ) {
      return pull;
    }
    const state = await this.compute(repo, git, pull.baseBranch, tips);
    const head = tips.head;
    if (head && head !== (await pullHeadTip(git, pull.index))) await setPullHead(git, pull.index, head);
    const moved = head !== undefined && pull.headCommitId !== "" && head !== pull.headCommitId;
    const push = moved ? await pushedCommits(git, pull.headCommitId, head) : undefined;
    const dismissStale =
      moved && (await this.protections.ruleFor(repo, pull.baseBranch))?.settings.dismissStaleApprovals;
    await this.ctx.db.transaction().execute(async (trx) => {
      await pulls.saveState(trx, pull.id, state);
      if (!moved || !push) return;
      const at = new Date();
      // The head moved: reviews of other commits are stale, approvals go if the rule says so,
      // and the timeline shows the push.
      const dismissed = await reviews.headMoved(trx, pull.issueId, head, dismissStale === true);
      for (const reviewId of dismissed) {
        await comments.insertComment(
          trx,
          {
            issueId: pull.issueId,
            type: CommentType.dismissReview,
            posterId: pusherId,
            reviewId,
            content: STALE_DISMISSAL,
          },
          at,
        );
      }
      const comment = await comments.insertComment(
        trx,
        {
          issueId: pull.issueId,
          type: CommentType.pullPush,
          posterId: pusherId,
          content: JSON.stringify(push),
        },
        at,
      );
      if (pusherId !== null) {
        await notifications.notifyIssueChange(trx, {
          issueId: pull.issueId,
          repoId: repo.id,
          isPull: true,
          actorId: pusherId,
          commentId: comment.id,
          at,
        });
      }
    });
    return { ...pull, ...state };
  }

  /**
   * After a push to `branches` of the repository: every open pull request with one of them as
   * head or base is checked again (and a moved head marks reviews stale and records the push).
   */
  async pushed(repo: Repository, branches: readonly string[], pusherId: number | null): Promise<void> {
    for (const pull of await pulls.findOpenPullsTouching(this.ctx.db, repo.id, branches)) {
      try {
        await this.current(repo, pull, false, pusherId);
      } catch (err) {
        // The next read checks it again; a push never fails because of a pull request.
        this.ctx.logger.warn(
          { err: (err as Error).message, pull: pull.id },
          "pull request not checked after push",
        );
      }
    }
  }
}
