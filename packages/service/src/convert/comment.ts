import {
  type api,
  COMMENT_TYPE_NAMES,
  CommentType,
  formatTime,
  type Repository,
  type Settings,
  type User,
} from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { CommentView } from "../issues/comment-service.js";
import type { TimelineEntry } from "../issues/timeline-service.js";
import { repoLinks } from "./git.js";
import { apiUserOrGhost, toApiIssue } from "./issue.js";
import { toApiLabel, toApiMilestone } from "./label.js";
import { secToTime, toApiTrackedTime } from "./time.js";
import { anonymousSight, toApiUser } from "./user.js";

/**
 * Forgejo's `Comment` (services/convert.ToAPIComment): `issue_url` is the issue's web page (empty
 * on a pull request, whose page is `pull_request_url`), the poster is shown without an e-mail
 * address, as Forgejo shows it.
 */
export function toApiComment(
  view: CommentView,
  repo: Repository,
  poster: User | null,
  settings: Settings,
  assets: v.InferOutput<typeof api.Comment>["assets"] = [],
): v.InferOutput<typeof api.Comment> {
  const { html } = repoLinks(repo, settings);
  const page = `${html}/${view.isPull ? "pulls" : "issues"}/${view.issueIndex}`;
  return {
    id: view.comment.id,
    html_url: `${page}#issuecomment-${view.comment.id}`,
    pull_request_url: view.isPull ? page : "",
    issue_url: view.isPull ? "" : page,
    user: apiUserOrGhost(poster, anonymousSight, settings),
    original_author: "",
    original_author_id: 0,
    body: view.comment.content,
    assets: [...assets],
    created_at: formatTime(view.comment.createdAt),
    updated_at: formatTime(view.comment.updatedAt),
  };
}

/** Events that store their seconds as `|<seconds>` (Forgejo since 1.21). */
const TIME_EVENTS: ReadonlySet<number> = new Set([
  CommentType.addTimeManual,
  CommentType.stopTracking,
  CommentType.deleteTimeManual,
]);

/** An event's text as Forgejo shows it: tracked seconds (`|3600`) read out by util.SecToTime ("1 hour"). */
function timelineBody(type: number, content: string): string {
  if (!TIME_EVENTS.has(type) || !content.startsWith("|")) return content;
  const seconds = /^-?\d+$/.test(content.slice(1)) ? Number(content.slice(1)) : 0;
  return secToTime(Number.isSafeInteger(seconds) ? seconds : 0);
}

/**
 * Forgejo's `TimelineComment` (services/convert.ToTimelineComment): the event's type by name,
 * what it refers to (label, milestones, assignee, tracked time, dependent issue) or null, and
 * the URLs of a comment. Projects, cross references and reviews are not kept by Kiln: zero and null.
 */
export function toApiTimelineComment(
  entry: TimelineEntry,
  repo: Repository,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.TimelineComment> {
  const { comment } = entry;
  const base = toApiComment(
    { comment, issueIndex: entry.issueIndex, isPull: entry.isPull },
    repo,
    entry.poster,
    settings,
  );
  const apiRepo = repoLinks(repo, settings).api;
  return {
    id: comment.id,
    type: COMMENT_TYPE_NAMES[comment.type] ?? "unknown",
    html_url: base.html_url,
    pull_request_url: base.pull_request_url,
    issue_url: base.issue_url,
    user: base.user,
    body: timelineBody(comment.type, comment.content),
    created_at: base.created_at,
    updated_at: base.updated_at,
    old_project_id: 0,
    project_id: 0,
    old_milestone: entry.oldMilestone ? toApiMilestone(entry.oldMilestone) : null,
    milestone: entry.milestone ? toApiMilestone(entry.milestone) : null,
    tracked_time: entry.trackedTime ? toApiTrackedTime(entry.trackedTime, sight, settings) : null,
    old_title: comment.oldTitle,
    new_title: comment.newTitle,
    old_ref: comment.oldRef,
    new_ref: comment.newRef,
    ref_issue: null,
    ref_comment: null,
    ref_action: "none",
    ref_commit_sha: comment.commitSha,
    review_id: comment.reviewId ?? 0,
    label: entry.label
      ? toApiLabel(
          entry.label,
          entry.label.orgId !== null ? { orgName: repo.ownerName } : { apiRepo },
          settings,
        )
      : null,
    // Forgejo shows the assignee with no viewer (ToUser with a nil doer), whoever reads it.
    assignee: entry.assignee ? toApiUser(entry.assignee, anonymousSight, settings) : null,
    assignee_team: null,
    removed_assignee: comment.removedAssignee,
    resolve_doer: null,
    dependent_issue: entry.dependentIssue ? toApiIssue(entry.dependentIssue, sight, settings) : null,
  };
}
