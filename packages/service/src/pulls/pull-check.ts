import { CommentType, type PullRequest, PullStatus, type Repository } from "@kiln/domain";
import {
  branchTip,
  diffSignature,
  type GitRepository,
  KeyedMutex,
  pullHeadTip,
  setPullHead,
} from "@kiln/git";
import { comments, issues, pulls, repositories, reviews } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import type { BranchProtectionService } from "../git/branch-protection-service.js";
import { recountIssueCounters } from "../issues/issue-counters.js";
import type { RepoService } from "../repos/repo-service.js";
import { PullHeads } from "./pull-heads.js";
import { computePullState, type PullTips, pushedCommits } from "./pull-state.js";
import type { PushTracker } from "./push-tracker.js";
import { type StatusCheckVerdict, statusChecksOf } from "./status-checks.js";

/** Forgejo's text for approvals dismissed by a push (`dismiss_stale_approvals`). */
const STALE_DISMISSAL =
  "New commits pushed, approval review dismissed automatically according to repository settings";

/**
 * Keeps what is known about merging a pull request current. The state is stored with the head and
 * base commits it was computed for, so any reader can tell whether it still holds and refresh it:
 * a push Kiln never heard of (a crash between git and the database, another process) cannot leave
 * it wrong. Refreshing is serialized per pull request in this process and compare-and-set in the
 * database, so a head move is recorded once (its `pull_push` entry, stale reviews, dismissed
 * approvals, notifications), credited to the pusher when this process saw the push.
 */
export class PullChecker {
  readonly #locks = new KeyedMutex();
  readonly #queued = new Set<number>();
  /** Where pull requests' heads live: the base, or a fork whose commits are copied into the base. */
  readonly heads: PullHeads;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly protections: BranchProtectionService,
    readonly pushes: PushTracker,
  ) {
    this.heads = new PullHeads(ctx, repos);
  }

  /**
   * The current tips of a pull request's base branch (in the base repository `repo`) and head
   * branch (in its head repository: the same one, a fork, or none once that is deleted).
   */
  async tips(
    repo: Repository,
    git: GitRepository,
    pull: Pick<PullRequest, "baseBranch" | "headBranch" | "headRepoId">,
  ): Promise<PullTips> {
    const headGit = await this.heads.git(repo, git, pull);
    const [base, head] = await Promise.all([
      branchTip(git, pull.baseBranch),
      headGit ? branchTip(headGit, pull.headBranch) : Promise.resolve(undefined),
    ]);
    return { base, head };
  }

  /**
   * Points `refs/pull/N/head` of the base repository at `head`, first copying the commit from the
   * head's repository when that is a fork, so the base holds every commit of its pull requests.
   */
  async setHeadRef(repo: Repository, git: GitRepository, pull: PullRequest, head: string): Promise<void> {
    await this.heads.fetch(repo, git, pull, head);
    await setPullHead(git, pull.index, head);
  }

  /** The state of merging `tips` into the base branch of `repo`, under the branch's rule as it is now. */
  async compute(repo: Repository, git: GitRepository, baseBranch: string, tips: PullTips) {
    return computePullState(git, tips, await this.protections.ruleFor(repo, baseBranch));
  }

  /**
   * The pull request with its state current: checked again when its base or head moved since
   * (or never checked), `refs/pull/N/head` following the head. A pull request whose head or base
   * branch is gone is closed, as Forgejo closes them when the branch is deleted. Merged and closed
   * pull requests keep the state they had.
   */
  async current(repo: Repository, pull: PullRequest, closed: boolean): Promise<PullRequest> {
    if (pull.hasMerged || closed) return pull;
    const git = await this.repos.git(repo);
    const tips = await this.tips(repo, git, pull);
    if (isCurrent(pull, tips)) {
      if (tips.head && (await pullHeadTip(git, pull.index)) !== tips.head)
        await this.setHeadRef(repo, git, pull, tips.head);
      return pull;
    }
    return this.#locks.run(`pull:${pull.id}`, async () => {
      // Another check may have run while this one waited.
      const now = await pulls.findPullById(this.ctx.db, pull.id);
      const issue = now && (await issues.findIssueById(this.ctx.db, now.issueId));
      if (!now || !issue || now.hasMerged || issue.isClosed) return now ?? pull;
      const latest = await this.tips(repo, git, now);
      if (isCurrent(now, latest)) return now;
      if (!latest.head || !latest.base) return this.closeOrphaned(repo, now, latest);
      return this.refresh(repo, git, now, latest);
    });
  }

  /**
   * What the base branch rule's required status checks say about the head of an open pull
   * request (undefined when none are required, or it is merged or closed: its verdict no longer
   * matters).
   */
  async statusChecks(
    repo: Repository,
    pull: PullRequest,
    closed: boolean,
  ): Promise<StatusCheckVerdict | undefined> {
    if (pull.hasMerged || closed) return undefined;
    const rule = await this.protections.ruleFor(repo, pull.baseBranch);
    return statusChecksOf(this.ctx.db, repo.id, pull.headCommitId, rule);
  }

  /** Checks a pull request again in the background (lists and pushes answer without waiting). */
  schedule(repo: Repository, pull: PullRequest): void {
    if (this.#queued.has(pull.id)) return;
    this.#queued.add(pull.id);
    void this.current(repo, pull, false)
      .catch((err: unknown) =>
        this.ctx.logger.warn({ err: (err as Error).message, pull: pull.id }, "pull request not checked"),
      )
      .finally(() => this.#queued.delete(pull.id));
  }

  /** Whether the stored state was computed for the current tips (a list shows `checking` otherwise). */
  async isCurrent(repo: Repository, pull: PullRequest): Promise<boolean> {
    return isCurrent(pull, await this.tips(repo, await this.repos.git(repo), pull));
  }

  /**
   * After a push to `branches` of the repository: the open pull requests with one of them as head
   * or base are checked again in the background, so the push answers at once.
   */
  async pushed(repo: Repository, branches: readonly string[]): Promise<void> {
    const bases = new Map<number, Repository | undefined>([[repo.id, repo]]);
    for (const pull of await pulls.findOpenPullsTouching(this.ctx.db, repo.id, branches)) {
      // A push to a fork's branch concerns the pull requests it heads in other repositories.
      if (!bases.has(pull.baseRepoId))
        bases.set(pull.baseRepoId, await repositories.findRepositoryById(this.ctx.db, pull.baseRepoId));
      const base = bases.get(pull.baseRepoId);
      if (base) this.schedule(base, pull);
    }
  }

  private async refresh(repo: Repository, git: GitRepository, pull: PullRequest, tips: PullTips) {
    const head = tips.head as string;
    await this.heads.fetch(repo, git, pull, head);
    const state = await this.compute(repo, git, pull.baseBranch, tips);
    const moved = pull.headCommitId !== "" && head !== pull.headCommitId;
    const push = moved ? await pushedCommits(git, pull.headCommitId, head) : undefined;
    // Reviews go stale only when the pull request's content changed, not when the head merely
    // took the base in (Forgejo's checkIfPRContentChanged).
    const contentChanged =
      moved &&
      (await diffSignature(git, pull.mergeBase || pull.baseCommitId, pull.headCommitId).catch(() => "")) !==
        (await diffSignature(git, state.mergeBase, head));
    const rule = moved ? await this.protections.ruleFor(repo, pull.baseBranch) : undefined;
    // The head moved by a push to its own repository (a fork's, for a pull request from a fork).
    const pusherId = moved ? this.pushes.pusher(pull.headRepoId ?? repo.id, pull.headBranch) : null;
    if ((await pullHeadTip(git, pull.index)) !== head) await setPullHead(git, pull.index, head);
    await this.ctx.db.transaction().execute(async (trx) => {
      const saved = await pulls.saveState(trx, pull.id, state, pull);
      if (!saved || !moved || !push) return;
      const at = new Date();
      const dismissed = await reviews.headMoved(trx, pull.issueId, head, {
        contentChanged,
        dismissApprovals: rule?.settings.dismissStaleApprovals === true,
      });
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
      // Forgejo's PullRequestSynchronized: the head moved (pull_request_sync), in the base repository.
      const base =
        pull.baseRepoId === repo.id ? repo : await repositories.findRepositoryById(trx, pull.baseRepoId);
      if (base) {
        await this.ctx.events.record(trx, {
          ...inRepo(base, pusherId ?? base.ownerId, at),
          type: "pull_request_sync",
          action: "synchronized",
          issueId: pull.issueId,
          commentId: comment.id,
          ...(pusherId === null ? { ownerStandsIn: true as const } : {}),
        });
      }
    });
    return (await pulls.findPullById(this.ctx.db, pull.id)) ?? { ...pull, ...state };
  }

  /** Closes a pull request whose head or base branch is gone (Forgejo's CloseBranchPulls), once. */
  private async closeOrphaned(repo: Repository, pull: PullRequest, tips: PullTips): Promise<PullRequest> {
    // Whoever removed the branch that is gone: the head's repository may be a fork.
    const doer = this.pushes.pusher(tips.base ? (pull.headRepoId ?? repo.id) : repo.id);
    const at = new Date();
    await this.ctx.db.transaction().execute(async (trx) => {
      const issue = await issues.findIssueById(trx, pull.issueId);
      if (!issue || issue.isClosed) return;
      await pulls.saveState(
        trx,
        pull.id,
        // A gone head keeps its last commit (in refs/pull/N/head), so its commits stay readable.
        { ...stateOf(pull), baseCommitId: tips.base ?? "", headCommitId: tips.head ?? pull.headCommitId },
        pull,
      );
      await issues.updateIssue(trx, pull.issueId, { isClosed: true, closedAt: at, updatedAt: at });
      const comment = await comments.insertComment(
        trx,
        { issueId: pull.issueId, type: CommentType.close, posterId: doer },
        at,
      );
      await recountIssueCounters(
        trx,
        repo.id,
        [issue.milestoneId],
        await issues.issueLabelIds(trx, pull.issueId),
      );
      // Forgejo's CloseBranchPulls closes with the pusher as doer; unknown, the owner stands in.
      await this.ctx.events.record(trx, {
        ...inRepo(repo, doer ?? repo.ownerId, at),
        type: "pull_request",
        action: "closed",
        issueId: pull.issueId,
        commentId: comment.id,
        ...(doer === null ? { ownerStandsIn: true as const } : {}),
      });
    });
    return (await pulls.findPullById(this.ctx.db, pull.id)) ?? pull;
  }
}

function isCurrent(pull: PullRequest, tips: PullTips): boolean {
  return (
    tips.base === pull.baseCommitId && tips.head === pull.headCommitId && pull.status !== PullStatus.checking
  );
}

function stateOf(pull: PullRequest) {
  return {
    mergeBase: pull.mergeBase,
    headCommitId: pull.headCommitId,
    baseCommitId: pull.baseCommitId,
    status: pull.status,
    conflictedFiles: pull.conflictedFiles,
    changedProtectedFiles: pull.changedProtectedFiles,
    commitsAhead: pull.commitsAhead,
    commitsBehind: pull.commitsBehind,
    additions: pull.additions,
    deletions: pull.deletions,
    changedFiles: pull.changedFiles,
  };
}
