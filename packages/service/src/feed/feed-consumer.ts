import { CommentType, formatTime, ReviewType } from "@kiln/domain";
import { actions, comments, type Db, issues, type NewAction, pulls, releases, reviews } from "@kiln/storage";
import type { ForgeEvent } from "../events/event.js";
import type { EventConsumer } from "../events/recorder.js";

const ZERO = /^0+$/;
type Entry = Omit<NewAction, "userId" | "repoId" | "isPrivate" | "actUserId" | "createdAt">;

/**
 * The activity feed (Forgejo's services/feed/action.go): turns events into Action rows, fanned
 * out as NotifyWatchers does (the actor's feed, the owning organization's, every watcher's), each
 * with the repository's privacy at the time. Reading filters by the viewer's access again, so a
 * watcher who lost access sees nothing of the repository.
 */
export const feedConsumer: EventConsumer = {
  name: "feed",
  async consume(trx, event) {
    if (event.repoId === null) return;
    if (event.type === "issues" && event.action === "deleted") {
      const issue = await issues.findIssueById(trx, event.issueId);
      if (issue) await actions.deleteIssueActions(trx, event.repoId, issue.id, issue.index);
      return;
    }
    if (
      (event.type === "issue_comment" || event.type === "pull_request_comment") &&
      event.action === "deleted"
    ) {
      await actions.markCommentDeleted(trx, event.commentId);
      return;
    }
    const entry = await entryOf(trx, event);
    if (!entry) return;
    const repo = await actions.feedRepository(trx, event.repoId);
    if (!repo) return;
    const orgOwner =
      repo.ownerType === "organization" && repo.ownerId !== event.actorId ? repo.ownerId : null;
    await actions.insertForWatchers(
      trx,
      {
        ...entry,
        repoId: repo.id,
        actUserId: event.actorId,
        isPrivate: repo.isPrivate,
        createdAt: event.at,
      },
      orgOwner,
    );
  },
};

const T = actions.ActionType;

/** The full name of the ref a create or delete event names. */
function refNameOf(event: { readonly refType: "branch" | "tag"; readonly ref: string }): string {
  return `${event.refType === "tag" ? "refs/tags/" : "refs/heads/"}${event.ref}`;
}

/** The feed entry an event makes, if any. */
async function entryOf(trx: Db, event: ForgeEvent): Promise<Entry | undefined> {
  switch (event.type) {
    case "repository":
      return event.action === "created" ? { opType: T.create_repo } : undefined;
    case "push": {
      const tag = event.ref.startsWith("refs/tags/");
      const deleted = ZERO.test(event.after);
      const opType = event.mirrorSync
        ? T.mirror_sync_push
        : tag
          ? deleted
            ? T.delete_tag
            : T.push_tag
          : deleted
            ? T.delete_branch
            : T.commit_repo;
      const repo = await actions.feedRepository(trx, event.repoId ?? 0);
      return {
        opType,
        refName: event.ref,
        content: pushContent(event, repo ? `${repo.ownerName}/${repo.name}` : ""),
      };
    }
    case "create":
      if (event.mirrorSync) return { opType: T.mirror_sync_create, refName: refNameOf(event) };
      // A tag's entry comes with its push, as Forgejo's CreateRef skips tags.
      return event.refType === "branch"
        ? { opType: T.commit_repo, refName: `refs/heads/${event.ref}` }
        : undefined;
    case "delete":
      if (event.mirrorSync) return { opType: T.mirror_sync_delete, refName: refNameOf(event) };
      return event.refType === "branch"
        ? { opType: T.delete_branch, refName: `refs/heads/${event.ref}` }
        : undefined;
    case "issues":
    case "pull_request":
      return issueEntry(trx, event.type === "pull_request", event.action, event.issueId);
    case "issue_comment":
    case "pull_request_comment": {
      if (event.action !== "created") return undefined;
      const issue = await issues.findIssueById(trx, event.issueId);
      const comment = await comments.findComment(trx, event.commentId);
      if (!issue || !comment) return undefined;
      return {
        opType: issue.isPull ? T.comment_pull : T.comment_issue,
        content: `${issue.index}|${truncate(comment.content)}`,
        commentId: comment.id,
      };
    }
    case "pull_request_review_approved":
    case "pull_request_review_rejected":
    case "pull_request_review_comment": {
      const review = await reviews.findReviewById(trx, event.reviewId);
      const issue = await issues.findIssueById(trx, event.issueId);
      if (!review || !issue) return undefined;
      if (review.type === ReviewType.comment && review.content.trim() === "") return undefined;
      const entryId = (await reviews.reviewEntryIds(trx, [review.id])).get(review.id) ?? null;
      return {
        opType:
          review.type === ReviewType.approve
            ? T.approve_pull_request
            : review.type === ReviewType.requestChanges
              ? T.reject_pull_request
              : T.comment_pull,
        content: `${issue.index}|${review.content.split("\n")[0] ?? ""}`,
        commentId: entryId,
      };
    }
    case "release": {
      if (event.action !== "published") return undefined;
      const release = await releases.findRelease(trx, event.repoId ?? 0, event.releaseId);
      return release
        ? { opType: T.publish_release, content: release.title, refName: release.tagName }
        : undefined;
    }
    default:
      return undefined;
  }
}

async function issueEntry(
  trx: Db,
  isPull: boolean,
  action: string,
  issueId: number,
): Promise<Entry | undefined> {
  const issue = await issues.findIssueById(trx, issueId);
  if (!issue) return undefined;
  if (action === "opened") {
    return {
      opType: isPull ? T.create_pull_request : T.create_issue,
      content: `${issue.index}|${issue.title}`,
    };
  }
  if (action !== "closed" && action !== "reopened") return undefined;
  if (isPull && action === "closed") {
    const [pull] = await pulls.findPullsByIssueIds(trx, [issue.id]);
    if (pull?.hasMerged) return { opType: T.merge_pull_request, content: `${issue.index}|${issue.title}` };
  }
  const closing = action === "closed";
  const status = await trx
    .selectFrom("comment")
    .select("id")
    .where("issueId", "=", issue.id)
    .where("type", "=", closing ? CommentType.close : CommentType.reopen)
    .orderBy("id", "desc")
    .executeTakeFirst();
  return {
    opType: closing
      ? isPull
        ? T.close_pull_request
        : T.close_issue
      : isPull
        ? T.reopen_pull_request
        : T.reopen_issue,
    content: `${issue.index}|`,
    commentId: status ? Number(status.id) : null,
  };
}

/** Forgejo's feed keeps 200 bytes of a comment, dropping a cut-off last word. */
function truncate(content: string): string {
  const bytes = Buffer.from(content);
  if (bytes.length <= 200) return content;
  let end = 200;
  while (end > 0 && ((bytes[end] as number) & 0xc0) === 0x80) end--;
  let cut = bytes.subarray(0, end).toString();
  const space = cut.lastIndexOf(" ");
  if (space !== -1 && Buffer.byteLength(cut) - space < 15) cut = `${cut.slice(0, space)}…`;
  return cut;
}

/**
 * A push's content: Forgejo's PushCommits JSON (`Commits`, `HeadCommit`, `CompareURL`, `Len`)
 * from the commits the event carries (the newest few, read from git before the transaction).
 */
function pushContent(event: Extract<ForgeEvent, { type: "push" }>, fullName: string): string {
  const commits = (event.commits ?? []).map((c) => ({
    Sha1: c.sha,
    Message: c.message,
    AuthorEmail: c.authorEmail,
    AuthorName: c.authorName,
    CommitterEmail: c.committerEmail,
    CommitterName: c.committerName,
    Timestamp: formatTime(c.timestamp),
  }));
  const compare =
    ZERO.test(event.before) || ZERO.test(event.after) || fullName === ""
      ? ""
      : `${fullName}/compare/${event.before}...${event.after}`;
  return JSON.stringify({
    Commits: commits,
    HeadCommit: commits[0] ?? null,
    CompareURL: compare,
    Len: event.totalCommits ?? commits.length,
  });
}
