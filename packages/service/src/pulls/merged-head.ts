import { CommentType, type PullRequest, type Repository } from "@kiln/domain";
import { deleteBranchAt, type GitRepository, ZERO_SHA } from "@kiln/git";
import { comments, type Db, pulls } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { RefMoveFinisher } from "../repos/ref-journal.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { PullChecker } from "./pull-check.js";

/** The pull request's `delete_branch` timeline comment, written with the deletion's events. */
const deletedComment = (pull: PullRequest, doerId: number, at: Date) => (trx: Db) =>
  comments
    .insertComment(
      trx,
      { issueId: pull.issueId, type: CommentType.deleteBranch, posterId: doerId, oldRef: pull.headBranch },
      at,
    )
    .then(() => undefined);

/**
 * Deletes a merged pull request's head branch in `headRepo` if it still holds the merged head,
 * journalled (kind `merged-head`): the deletion's push events and the pull request's timeline
 * comment are written in the transaction that claims it, so a crash after git deleted the branch
 * is finished at start-up ({@link mergedHeadFinisher}). False when the branch had moved or gone.
 */
export async function deleteMergedHead(
  refs: RefUpdates,
  headRepo: Repository,
  git: GitRepository,
  doerId: number,
  pull: PullRequest,
): Promise<boolean> {
  return refs.move(headRepo, doerId, {
    kind: "merged-head",
    facts: { pullId: pull.id },
    move: (beforeMove) => deleteBranchAt(git, pull.headBranch, pull.headCommitId, beforeMove),
    updatesOf: (deleted) =>
      deleted ? [{ ref: `refs/heads/${pull.headBranch}`, oldSha: pull.headCommitId, newSha: ZERO_SHA }] : [],
    record: deletedComment(pull, doerId, new Date()),
  });
}

/** Re-checks the open pull requests based on a deleted branch, which closes them, credited to the doer. */
export async function closeOrphans(
  ctx: ServiceContext,
  checker: PullChecker,
  repo: Repository,
  branch: string,
): Promise<void> {
  for (const child of await pulls.openPullsWithBase(ctx.db, repo.id, branch)) {
    await checker.current(repo, child, false);
  }
}

/**
 * Finishes a head branch deletion a crash interrupted after git deleted the branch: its events
 * and the pull request's comment are recorded as an uninterrupted deletion records them, then the
 * pull requests left on the branch are closed.
 */
export function mergedHeadFinisher(
  ctx: ServiceContext,
  refs: RefUpdates,
  checker: PullChecker,
): RefMoveFinisher {
  return async (repo, _git, _intents, landed) => {
    const [intent] = landed;
    if (!intent) return;
    const pull = intent.pullId === null ? undefined : await pulls.findPullById(ctx.db, intent.pullId);
    const doerId = intent.doerId;
    await refs.credited(repo.id, doerId, async () => {
      await refs.record(repo, landed, doerId, {
        operation: intent.operation,
        kind: "merged-head",
        ...(pull && doerId !== null ? { record: deletedComment(pull, doerId, intent.createdAt) } : {}),
      });
      await closeOrphans(ctx, checker, repo, intent.ref.slice("refs/heads/".length));
    });
  };
}
