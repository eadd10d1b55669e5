import { CommentType, type PullRequest, PullStatus, type Repository, type User } from "@kiln/domain";
import type { RefUpdate } from "@kiln/git";
import { comments, issues, pulls, users } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { describePushes, type PushedCommits, recordRefUpdates } from "../events/ref-events.js";
import { recountIssueCounters } from "../issues/issue-counters.js";
import type { RefJournal, RefMoveFinisher } from "../repos/ref-journal.js";
import type { RepoService } from "../repos/repo-service.js";

/** What a merge stores: the merged commit, when, how, and the base branch's move (none for a manual merge). */
export interface MergeRecord {
  readonly commitId: string;
  readonly at: Date;
  readonly status: PullRequest["status"];
  readonly push?: { readonly update: RefUpdate; readonly commits: ReadonlyMap<string, PushedCommits> };
  /** The journalled operation of the base branch's move, claimed in the same transaction. */
  readonly operation?: string;
}

/**
 * Records a merge in one transaction: the base branch's push, the pull request merged and closed,
 * its timeline comment, counters and the `pull_request` `closed` event (which notifies). With an
 * operation, nothing is recorded when the journal's rows are gone (a reconciliation recorded it).
 */
export async function recordMerged(
  ctx: ServiceContext,
  journal: RefJournal,
  repo: Repository,
  doer: User,
  pull: PullRequest,
  record: MergeRecord,
): Promise<void> {
  const { commitId, at, status, push, operation } = record;
  const now = new Date();
  await ctx.db.transaction().execute(async (trx) => {
    if (operation && !(await journal.claim(trx, operation))) return;
    // The base branch moved in git just before: its push is recorded with the merge.
    const base = inRepo(repo, doer.id, now);
    if (push) await recordRefUpdates(ctx.events, trx, base, [push.update], push.commits);
    await pulls.updatePull(trx, pull.id, { merged: { commitId, mergerId: doer.id, at, status } });
    await pulls.deleteAutoMerge(trx, pull.id);
    await issues.updateIssue(trx, pull.issueId, { isClosed: true, closedAt: now, updatedAt: now });
    const comment = await comments.insertComment(
      trx,
      { issueId: pull.issueId, type: CommentType.mergePull, posterId: doer.id, commitSha: commitId },
      now,
    );
    const issue = await issues.findIssueById(trx, pull.issueId);
    await recountIssueCounters(
      trx,
      repo.id,
      [issue?.milestoneId ?? null],
      await issues.issueLabelIds(trx, pull.issueId),
    );
    // Forgejo's MergePullRequest: `closed`, the payload's pull request merged.
    await ctx.events.record(trx, {
      ...base,
      type: "pull_request",
      action: "closed",
      issueId: pull.issueId,
      commentId: comment.id,
    });
  });
}

/**
 * Finishes a merge a crash interrupted after the base branch moved: the pull request is recorded
 * merged by its doer, with the same events as a merge that was not interrupted. A pull request or
 * doer gone since (or a pull already merged) only drops the journal's rows.
 */
export function mergeFinisher(ctx: ServiceContext, repos: RepoService): RefMoveFinisher {
  return async (repo, git, _intents, landed) => {
    const [intent] = landed;
    if (!intent) return;
    const pull = intent.pullId === null ? undefined : await pulls.findPullById(ctx.db, intent.pullId);
    const doer = intent.doerId === null ? undefined : await users.findUserById(ctx.db, intent.doerId);
    if (!pull || !doer || pull.hasMerged) {
      await ctx.db.transaction().execute((trx) => repos.journal.claim(trx, intent.operation));
      return;
    }
    const update = { ref: intent.ref, oldSha: intent.oldSha, newSha: intent.newSha };
    await recordMerged(ctx, repos.journal, repo, doer, pull, {
      commitId: intent.newSha,
      at: intent.createdAt,
      status: PullStatus.mergeable,
      push: { update, commits: await describePushes(git, [update]) },
      operation: intent.operation,
    });
    await repos.refreshSize(repo.id);
  };
}
