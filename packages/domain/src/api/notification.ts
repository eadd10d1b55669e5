import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";
import { Repository } from "./repository.js";

/** What a notification is about (Forgejo's `NotificationSubject`). */
export const NotificationSubject = v.object({
  title: v.string(),
  url: v.string(),
  latest_comment_url: v.string(),
  html_url: v.string(),
  latest_comment_html_url: v.string(),
  type: v.picklist(["Issue", "Pull", "Commit", "Repository"]),
  state: v.picklist(["open", "closed", "merged", ""]),
});

/** One notification of a user (Forgejo's `NotificationThread`). */
export const NotificationThread = v.object({
  id: int64(),
  repository: Repository,
  subject: NotificationSubject,
  unread: v.boolean(),
  pinned: v.boolean(),
  updated_at: dateTime(),
  url: v.string(),
});

/** How many unread notifications there are (Forgejo's `NotificationCount`). */
export const NotificationCount = v.object({ new: int64() });
