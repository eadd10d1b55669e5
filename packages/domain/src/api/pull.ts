import * as v from "valibot";
import { Label, Milestone } from "./label.js";
import { Team } from "./organization.js";
import { dateTime, int64, optionalField, timeInput } from "./primitives.js";
import { Repository } from "./repository.js";
import { User } from "./user.js";

const text = (max: number) => v.pipe(v.string(), v.maxLength(max));
const required = (max: number) => v.pipe(v.string(), v.nonEmpty("Required"), v.maxLength(max));
/** An optional field that a client may also send as `null` (Go clients send unset fields so). */
const opt = optionalField;
const BODY_MAX = 1024 * 1024;
const names = () => v.pipe(v.array(text(255)), v.maxLength(100));

/** One side of a pull request (Forgejo's `PRBranchInfo`). */
export const PRBranchInfo = v.object({
  label: v.string(),
  ref: v.string(),
  sha: v.string(),
  repo_id: int64(),
  repo: v.nullable(Repository),
});

/** A pull request (Forgejo's `PullRequest`). */
export const PullRequest = v.object({
  id: int64(),
  url: v.string(),
  number: int64(),
  user: User,
  title: v.string(),
  body: v.string(),
  labels: v.array(Label),
  milestone: v.nullable(Milestone),
  assignee: v.nullable(User),
  assignees: v.nullable(v.array(User)),
  requested_reviewers: v.array(User),
  requested_reviewers_teams: v.array(Team),
  state: v.picklist(["open", "closed"]),
  draft: v.boolean(),
  is_locked: v.boolean(),
  comments: int64(),
  review_comments: int64(),
  additions: int64(),
  deletions: int64(),
  changed_files: int64(),
  html_url: v.string(),
  diff_url: v.string(),
  patch_url: v.string(),
  mergeable: v.boolean(),
  merged: v.boolean(),
  merged_at: v.nullable(dateTime()),
  merge_commit_sha: v.nullable(v.string()),
  merged_by: v.nullable(User),
  allow_maintainer_edit: v.boolean(),
  base: PRBranchInfo,
  head: PRBranchInfo,
  merge_base: v.string(),
  due_date: v.nullable(dateTime()),
  created_at: dateTime(),
  updated_at: dateTime(),
  closed_at: v.nullable(dateTime()),
  pin_order: int64(),
  flow: int64(),
});

/** Body of `POST /repos/{owner}/{repo}/pulls`. */
export const CreatePullRequestOption = v.object({
  head: required(255),
  base: required(255),
  title: required(65536),
  body: opt(text(BODY_MAX)),
  assignee: opt(text(255)),
  assignees: opt(names()),
  milestone: opt(int64()),
  labels: opt(v.pipe(v.array(int64()), v.maxLength(100))),
  due_date: opt(timeInput()),
});

/** Body of `PATCH /repos/{owner}/{repo}/pulls/{index}`: only the fields given change. */
export const EditPullRequestOption = v.object({
  title: opt(text(65536)),
  body: opt(text(BODY_MAX)),
  base: opt(text(255)),
  assignee: opt(text(255)),
  assignees: opt(names()),
  milestone: opt(int64()),
  labels: opt(v.pipe(v.array(int64()), v.maxLength(100))),
  state: opt(text(16)),
  due_date: opt(timeInput()),
  unset_due_date: opt(v.boolean()),
  allow_maintainer_edit: opt(v.boolean()),
});

const MERGE_DO = [
  "merge",
  "rebase",
  "rebase-merge",
  "squash",
  "fast-forward-only",
  "manually-merged",
] as const;

/**
 * Body of `POST …/pulls/{index}/merge`. Forgejo's names (`Do`, `MergeTitleField`, …, matched in
 * any case as Go's JSON decoder does) and, as Kiln's aliases, the snake_case spellings
 * (`merge_title_field`, `merge_message_field`, `merge_commit_id`); Forgejo's win when both are given.
 */
export const MergePullRequestOption = v.object({
  Do: v.picklist(MERGE_DO, "In"),
  MergeTitleField: opt(text(65536)),
  MergeMessageField: opt(text(BODY_MAX)),
  MergeCommitID: opt(text(64)),
  merge_title_field: opt(text(65536)),
  merge_message_field: opt(text(BODY_MAX)),
  merge_commit_id: opt(text(64)),
  head_commit_id: opt(text(64)),
  force_merge: opt(v.boolean()),
  merge_when_checks_succeed: opt(v.boolean()),
  delete_branch_after_merge: opt(v.boolean()),
});

/** A file a pull request changes (Forgejo's `ChangedFile`). */
export const ChangedFile = v.object({
  filename: v.string(),
  previous_filename: v.optional(v.string()),
  status: v.string(),
  additions: int64(),
  deletions: int64(),
  changes: int64(),
  html_url: v.string(),
  contents_url: v.string(),
  raw_url: v.string(),
});

/** The states a review can be in (Forgejo's `ReviewStateType`). */
export const REVIEW_STATES = [
  "APPROVED",
  "PENDING",
  "COMMENT",
  "REQUEST_CHANGES",
  "REQUEST_REVIEW",
  "",
] as const;

/** A review or review request (Forgejo's `PullReview`). */
export const PullReview = v.object({
  id: int64(),
  user: v.nullable(User),
  team: v.nullable(Team),
  state: v.picklist(REVIEW_STATES),
  body: v.string(),
  commit_id: v.string(),
  stale: v.boolean(),
  official: v.boolean(),
  dismissed: v.boolean(),
  comments_count: int64(),
  submitted_at: dateTime(),
  updated_at: dateTime(),
  html_url: v.string(),
  pull_request_url: v.string(),
});

/** A line comment of a review (Forgejo's `PullReviewComment`). */
export const PullReviewComment = v.object({
  id: int64(),
  body: v.string(),
  user: v.nullable(User),
  resolver: v.nullable(User),
  pull_request_review_id: int64(),
  created_at: dateTime(),
  updated_at: dateTime(),
  path: v.string(),
  commit_id: v.string(),
  original_commit_id: v.string(),
  diff_hunk: v.string(),
  position: int64(),
  original_position: int64(),
  html_url: v.string(),
  pull_request_url: v.string(),
});

/** A line comment given with a new review (Forgejo's `CreatePullReviewComment`). */
export const CreatePullReviewComment = v.object({
  path: opt(text(4096)),
  body: opt(text(BODY_MAX)),
  old_position: opt(int64()),
  new_position: opt(int64()),
});

/** Body of `POST …/pulls/{index}/reviews`. */
export const CreatePullReviewOptions = v.object({
  event: opt(text(32)),
  body: opt(text(BODY_MAX)),
  commit_id: opt(text(64)),
  comments: opt(v.pipe(v.array(CreatePullReviewComment), v.maxLength(500))),
});

/** Body of `POST …/pulls/{index}/reviews/{id}`. */
export const SubmitPullReviewOptions = v.object({
  event: opt(text(32)),
  body: opt(text(BODY_MAX)),
});

/** Body of `POST …/reviews/{id}/dismissals`. */
export const DismissPullReviewOptions = v.object({
  message: opt(text(BODY_MAX)),
  priors: opt(v.boolean()),
});

/** Body of `POST|DELETE …/pulls/{index}/requested_reviewers`. */
export const PullReviewRequestOptions = v.object({
  reviewers: opt(names()),
  team_reviewers: opt(names()),
});
