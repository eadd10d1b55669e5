import { CommentType, type Issue, type Repository } from "@kiln/domain";
import { blocks, comments, type Db, issueRelations, issues } from "@kiln/storage";
import { inRepo } from "../events/event-base.js";
import type { EventRecorder } from "../events/recorder.js";
import { recountIssueCounters } from "./issue-counters.js";

/** A state change of one issue, decided by its caller (who checked the doer may make it). */
export interface StatusChange {
  readonly issue: Issue;
  readonly repo: Repository;
  readonly doerId: number;
  readonly closing: boolean;
  readonly at: Date;
}

/**
 * Closes or reopens an issue in the caller's transaction, as an ordinary change (Forgejo's
 * ChangeStatus): the row, its `close`/`reopen` timeline entry, the counters it moves, the doer's
 * stopwatch on it stopped, and its `issues` (or `pull_request`) event for the notifications, the
 * feed and webhooks. Nothing happens, and false is answered, when the issue is
 * already in that state, when closing it would leave open dependencies, or when the repository's
 * owner or the issue's poster blocks the doer.
 */
export async function changeIssueStatus(
  trx: Db,
  events: EventRecorder,
  change: StatusChange,
): Promise<boolean> {
  const { issue, repo, doerId, closing, at } = change;
  if (issue.isClosed === closing) return false;
  if (closing && (await issueRelations.hasOpenBlockers(trx, issue.id))) return false;
  const blockers = issue.posterId === null ? [repo.ownerId] : [repo.ownerId, issue.posterId];
  if (await blocks.isBlockedByAny(trx, blockers, doerId)) return false;
  await issues.updateIssue(trx, issue.id, {
    isClosed: closing,
    closedAt: closing ? at : null,
    updatedAt: at,
  });
  const comment = await comments.insertComment(
    trx,
    { issueId: issue.id, type: closing ? CommentType.close : CommentType.reopen, posterId: doerId },
    at,
  );
  await recountIssueCounters(trx, repo.id, [issue.milestoneId], await issues.issueLabelIds(trx, issue.id));
  if (closing) {
    await trx.deleteFrom("stopwatch").where("issueId", "=", issue.id).where("userId", "=", doerId).execute();
  }
  await events.record(trx, {
    ...inRepo(repo, doerId, at),
    type: issue.isPull ? "pull_request" : "issues",
    action: closing ? "closed" : "reopened",
    issueId: issue.id,
    commentId: comment.id,
  });
  return true;
}
