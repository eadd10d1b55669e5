import * as v from "valibot";
import { Label, Milestone } from "./label.js";
import { dateTime, int64, optionalField, timeInput } from "./primitives.js";
import { Attachment } from "./release.js";
import { User } from "./user.js";

const required = (max: number) => v.pipe(v.string(), v.nonEmpty("Required"), v.maxLength(max));
const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
/** The longest issue or comment body Kiln takes (Forgejo's column is LONGTEXT; the request is capped anyway). */
const BODY_MAX = 1024 * 1024;
const names = () => v.pipe(v.array(text(255)), v.maxLength(100));

/** The repository an issue belongs to, in short (Forgejo's `RepositoryMeta`). */
export const RepositoryMeta = v.object({
  id: int64(),
  name: v.string(),
  owner: v.string(),
  full_name: v.string(),
});

/** What an issue that is a pull request adds (Forgejo's `PullRequestMeta`). */
export const PullRequestMeta = v.object({
  merged: v.boolean(),
  merged_at: v.nullable(dateTime()),
  draft: v.boolean(),
  html_url: v.string(),
});

/** An issue or pull request (Forgejo's `Issue`). */
export const Issue = v.object({
  id: int64(),
  url: v.string(),
  html_url: v.string(),
  number: int64(),
  user: User,
  original_author: v.string(),
  original_author_id: int64(),
  title: v.string(),
  body: v.string(),
  ref: v.string(),
  assets: v.array(Attachment),
  labels: v.array(Label),
  milestone: v.nullable(Milestone),
  assignee: v.nullable(User),
  assignees: v.nullable(v.array(User)),
  state: v.picklist(["open", "closed"]),
  is_locked: v.boolean(),
  comments: int64(),
  created_at: dateTime(),
  updated_at: dateTime(),
  closed_at: v.nullable(dateTime()),
  due_date: v.nullable(dateTime()),
  pull_request: v.nullable(PullRequestMeta),
  repository: RepositoryMeta,
  pin_order: int64(),
});

/**
 * Body of `POST /repos/{owner}/{repo}/issues`. Like every option below, a field sent as `null`
 * counts as absent, as Go's JSON decoding gives it Forgejo; `milestone: 0` is no milestone.
 */
export const CreateIssueOption = v.object({
  title: required(65536),
  body: optionalField(text(BODY_MAX)),
  ref: optionalField(text(1024)),
  assignee: optionalField(text(255)),
  assignees: optionalField(names()),
  due_date: optionalField(timeInput()),
  milestone: optionalField(int64()),
  labels: optionalField(v.pipe(v.array(int64()), v.maxLength(100))),
  closed: optionalField(v.boolean()),
});

/**
 * Body of `PATCH /repos/{owner}/{repo}/issues/{index}`: only the fields given change (an empty
 * title is no title, `milestone: 0` removes the milestone, as in Forgejo).
 */
export const EditIssueOption = v.object({
  title: optionalField(text(65536)),
  body: optionalField(text(BODY_MAX)),
  ref: optionalField(text(1024)),
  assignee: optionalField(text(255)),
  assignees: optionalField(names()),
  milestone: optionalField(int64()),
  state: optionalField(text(16)),
  due_date: optionalField(timeInput()),
  unset_due_date: optionalField(v.boolean()),
  updated_at: optionalField(timeInput()),
});

/** A comment of an issue (Forgejo's `Comment`). */
export const Comment = v.object({
  id: int64(),
  html_url: v.string(),
  pull_request_url: v.string(),
  issue_url: v.string(),
  user: User,
  original_author: v.string(),
  original_author_id: int64(),
  body: v.string(),
  assets: v.array(Attachment),
  created_at: dateTime(),
  updated_at: dateTime(),
});

/** Body of `POST …/issues/{index}/comments`. */
export const CreateIssueCommentOption = v.object({
  body: required(BODY_MAX),
  updated_at: optionalField(timeInput()),
});

/** Body of `PATCH …/issues/comments/{id}`. */
export const EditIssueCommentOption = v.object({
  body: required(BODY_MAX),
  updated_at: optionalField(timeInput()),
});

/**
 * Body of `POST|PUT …/issues/{index}/labels`: label ids or names (not mixed; the service checks
 * the kinds and answers Forgejo's 400s).
 */
export const IssueLabelsOption = v.object({
  labels: optionalField(v.pipe(v.array(v.unknown()), v.maxLength(100))),
  updated_at: optionalField(timeInput()),
});

/** Body of `DELETE …/issues/{index}/labels` (optional). */
export const DeleteLabelsOption = v.object({
  updated_at: optionalField(timeInput()),
});

/** Body of `POST …/issues/{index}/deadline`: null (or absent, or Go's zero time) removes the deadline. */
export const EditDeadlineOption = v.object({
  due_date: optionalField(timeInput()),
});

/** Answer of `POST …/issues/{index}/deadline`. */
export const IssueDeadline = v.object({
  due_date: v.nullable(dateTime()),
});

/** Time tracked on an issue (Forgejo's `TrackedTime`); `time` in seconds. */
export const TrackedTime = v.object({
  id: int64(),
  created: dateTime(),
  time: int64(),
  user_id: int64(),
  user_name: v.string(),
  issue_id: int64(),
  issue: v.nullable(Issue),
});

/** The longest single tracked time Kiln takes: a hundred years, in seconds. */
export const MAX_TRACKED_SECONDS = 100 * 365 * 24 * 3600;

/** Body of `POST …/issues/{index}/times`: no `created` (or Go's zero time) is now. */
export const AddTimeOption = v.object({
  time: v.pipe(int64(), v.minValue(1, "Required"), v.maxValue(MAX_TRACKED_SECONDS)),
  created: optionalField(timeInput()),
  user_name: optionalField(text(255)),
});

/** A running stopwatch (Forgejo's `StopWatch`). */
export const StopWatch = v.object({
  created: dateTime(),
  seconds: int64(),
  duration: v.string(),
  issue_index: int64(),
  issue_title: v.string(),
  repo_owner_name: v.string(),
  repo_name: v.string(),
});

/** Whether the caller is subscribed (Forgejo's `WatchInfo`). */
export const WatchInfo = v.object({
  subscribed: v.boolean(),
  ignored: v.boolean(),
  reason: v.nullable(v.unknown()),
  created_at: dateTime(),
  url: v.string(),
  repository_url: v.string(),
});

/** A reaction to an issue or comment (Forgejo's `Reaction`). */
export const Reaction = v.object({
  user: User,
  content: v.string(),
  created_at: dateTime(),
});

/** Body of `POST|DELETE …/reactions`. */
export const EditReactionOption = v.object({
  content: optionalField(text(255)),
});

/** An issue named by repository and number (Forgejo's `IssueMeta`), for dependencies. */
export const IssueMeta = v.object({
  owner: optionalField(text(255)),
  repo: optionalField(text(255)),
  index: optionalField(v.pipe(int64(), v.minValue(1))),
});

/** Body of `PUT …/issues/{index}/lock` (a Kiln extension, Gitea's shape): one of the lock reasons, or none. */
export const LockIssueOption = v.object({
  lock_reason: optionalField(text(255)),
});

/** Whether another issue and pull request may be pinned (Forgejo's `NewIssuePinsAllowed`). */
export const NewIssuePinsAllowed = v.object({
  issues: v.boolean(),
  pull_requests: v.boolean(),
});

/** A comment or event of an issue's timeline (Forgejo's `TimelineComment`). */
export const TimelineComment = v.object({
  id: int64(),
  type: v.string(),
  html_url: v.string(),
  pull_request_url: v.string(),
  issue_url: v.string(),
  user: User,
  body: v.string(),
  created_at: dateTime(),
  updated_at: dateTime(),
  old_project_id: int64(),
  project_id: int64(),
  old_milestone: v.nullable(Milestone),
  milestone: v.nullable(Milestone),
  tracked_time: v.nullable(TrackedTime),
  old_title: v.string(),
  new_title: v.string(),
  old_ref: v.string(),
  new_ref: v.string(),
  ref_issue: v.nullable(Issue),
  ref_comment: v.nullable(Comment),
  ref_action: v.string(),
  ref_commit_sha: v.string(),
  review_id: int64(),
  label: v.nullable(Label),
  assignee: v.nullable(User),
  assignee_team: v.nullable(v.unknown()),
  removed_assignee: v.boolean(),
  resolve_doer: v.nullable(User),
  dependent_issue: v.nullable(Issue),
});

/** One field of an issue form (Forgejo's `IssueFormField`). */
export const IssueFormField = v.object({
  type: v.string(),
  id: v.string(),
  attributes: v.nullable(v.record(v.string(), v.unknown())),
  validations: v.nullable(v.record(v.string(), v.unknown())),
  visible: v.optional(v.array(v.string())),
});

/** An issue template of the default branch (Forgejo's `IssueTemplate`). */
export const IssueTemplate = v.object({
  name: v.string(),
  title: v.string(),
  about: v.string(),
  labels: v.nullable(v.array(v.string())),
  ref: v.string(),
  content: v.string(),
  body: v.nullable(v.array(IssueFormField)),
  file_name: v.string(),
});

/** The issue template config (Forgejo's `IssueConfig`). */
export const IssueConfig = v.object({
  blank_issues_enabled: v.boolean(),
  contact_links: v.array(v.object({ name: v.string(), url: v.string(), about: v.string() })),
});

/** Whether the config is valid (Forgejo's `IssueConfigValidation`). */
export const IssueConfigValidation = v.object({
  valid: v.boolean(),
  message: v.string(),
});
