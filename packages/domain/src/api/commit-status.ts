import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";
import { Repository } from "./repository.js";
import { User } from "./user.js";

/** Forgejo's CommitStatusState values. */
export const COMMIT_STATUS_STATE_VALUES = ["pending", "success", "error", "failure", "warning"] as const;

/** `POST /repos/{owner}/{repo}/statuses/{sha}` (Forgejo's CreateStatusOption). */
export const CreateStatusOption = v.object({
  state: v.picklist(COMMIT_STATUS_STATE_VALUES),
  target_url: v.optional(v.pipe(v.string(), v.maxLength(2048)), ""),
  description: v.optional(v.pipe(v.string(), v.maxLength(1024)), ""),
  context: v.optional(v.pipe(v.string(), v.maxLength(255)), ""),
});

/** A status of a commit (Forgejo's CommitStatus; its state is named `status`). */
export const CommitStatus = v.object({
  id: int64(),
  status: v.string(),
  target_url: v.string(),
  description: v.string(),
  url: v.string(),
  context: v.string(),
  creator: User,
  created_at: dateTime(),
  updated_at: dateTime(),
});

/**
 * `GET /repos/{owner}/{repo}/commits/{ref}/status`. For a commit without statuses Forgejo answers
 * its zero value: empty strings, `statuses` and `repository` null.
 */
export const CombinedStatus = v.object({
  state: v.string(),
  sha: v.string(),
  total_count: int64(),
  statuses: v.nullable(v.array(CommitStatus)),
  repository: v.nullable(Repository),
  commit_url: v.string(),
  url: v.string(),
});
