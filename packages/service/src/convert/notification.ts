import { type api, formatTime, type Repository, type Settings, type User } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { NotificationThreadRow } from "../social/notification-service.js";
import { toApiRepository } from "./repository.js";

const SUBJECT_TYPES = { 1: "Issue", 2: "Pull", 3: "Commit", 4: "Repository" } as const;

/**
 * A notification as Forgejo's `NotificationThread` (services/convert.ToNotificationThread): the
 * repository without permissions, the subject's issue or pull request with its latest comment,
 * `unread` only for status unread and `pinned` for pinned.
 */
export function toNotificationThread(
  row: NotificationThreadRow,
  repo: Repository,
  owner: User,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.NotificationThread> {
  const root = settings.server.rootUrl;
  const fullName = `${owner.name}/${repo.name}`;
  const repoApi = `${root}api/v1/repos/${fullName}`;
  const repoHtml = `${root}${fullName}`;
  const type = SUBJECT_TYPES[row.source as keyof typeof SUBJECT_TYPES] ?? "Issue";
  let subject: v.InferOutput<typeof api.NotificationSubject> = {
    title: "",
    url: "",
    latest_comment_url: "",
    html_url: "",
    latest_comment_html_url: "",
    type,
    state: "",
  };
  if ((type === "Issue" || type === "Pull") && row.issueIndex !== null) {
    const html = `${repoHtml}/${row.isPull ? "pulls" : "issues"}/${row.issueIndex}`;
    subject = {
      ...subject,
      title: row.issueTitle ?? "",
      url: `${repoApi}/issues/${row.issueIndex}`,
      html_url: html,
      state: row.merged ? "merged" : row.issueClosed ? "closed" : "open",
      ...(row.latestCommentId !== null
        ? {
            latest_comment_url: `${repoApi}/issues/comments/${row.latestCommentId}`,
            latest_comment_html_url: `${html}#issuecomment-${row.latestCommentId}`,
          }
        : {}),
    };
  } else if (type === "Repository") {
    subject = { ...subject, title: fullName, url: `/${fullName}`, html_url: repoHtml };
  }
  return {
    id: row.id,
    repository: toApiRepository(repo, owner, sight, undefined, settings),
    subject,
    unread: row.status === 1,
    pinned: row.status === 3,
    updated_at: formatTime(row.updatedAt),
    url: `${root}api/v1/notifications/threads/${row.id}`,
  };
}
