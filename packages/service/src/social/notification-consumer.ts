import { notifications } from "@kiln/storage";
import type { ForgeEvent } from "../events/event.js";
import type { EventConsumer } from "../events/recorder.js";

/** The issue change an event notifies of, if any. */
interface IssueChange {
  readonly issueId: number;
  readonly isPull: boolean;
  readonly commentId: number | null;
}

/**
 * The event consumer "notifications" (Forgejo's UI notifier, services/uinotification): in the
 * transaction of the change it tells everyone an issue or pull request concerns that it changed,
 * through `notifyIssueChange` (who is told, and who is not, is decided there: not the actor, not
 * whoever blocks the actor, only readers of the repository). A deletion, a comment edited or
 * deleted and a review request notify nobody, as in Forgejo; nor does a change whose doer is
 * unknown (the owner only stands in as its actor).
 */
export const notificationConsumer: EventConsumer = {
  name: "notifications",
  async consume(trx, event) {
    if (event.repoId === null) return;
    const change = issueChangeOf(event);
    if (!change) return;
    await notifications.notifyIssueChange(trx, {
      ...change,
      repoId: event.repoId,
      actorId: event.actorId,
      at: event.at,
    });
  },
};

/** Which issue an event changed, and the timeline entry its notifications point at. */
function issueChangeOf(event: ForgeEvent): IssueChange | undefined {
  switch (event.type) {
    case "issues":
    case "pull_request":
      if (event.action === "deleted" || event.action === "synchronized" || event.ownerStandsIn)
        return undefined;
      return {
        issueId: event.issueId,
        isPull: event.type === "pull_request",
        commentId: event.commentId ?? null,
      };
    case "issue_assign":
    case "issue_label":
    case "issue_milestone":
      return { issueId: event.issueId, isPull: false, commentId: null };
    case "pull_request_assign":
    case "pull_request_label":
    case "pull_request_milestone":
      return { issueId: event.issueId, isPull: true, commentId: null };
    case "issue_comment":
    case "pull_request_comment":
      if (event.action !== "created") return undefined;
      return {
        issueId: event.issueId,
        isPull: event.type === "pull_request_comment",
        commentId: event.commentId,
      };
    case "pull_request_review_approved":
    case "pull_request_review_rejected":
    case "pull_request_review_comment":
      return { issueId: event.issueId, isPull: true, commentId: event.commentId ?? null };
    case "pull_request_sync":
      if (event.ownerStandsIn) return undefined;
      return { issueId: event.issueId, isPull: true, commentId: event.commentId ?? null };
    case "issue_touched":
      return { issueId: event.issueId, isPull: event.isPull, commentId: event.commentId };
    default:
      return undefined;
  }
}
