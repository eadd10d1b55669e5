import * as v from "valibot";
import { Comment } from "./issue.js";
import { dateTime, int64 } from "./primitives.js";
import { Repository } from "./repository.js";
import { User } from "./user.js";

/** Forgejo's ActionType names, as the API writes `op_type`. */
export const ACTIVITY_OP_TYPES = [
  "create_repo",
  "rename_repo",
  "star_repo",
  "watch_repo",
  "commit_repo",
  "create_issue",
  "create_pull_request",
  "transfer_repo",
  "push_tag",
  "comment_issue",
  "merge_pull_request",
  "close_issue",
  "reopen_issue",
  "close_pull_request",
  "reopen_pull_request",
  "delete_tag",
  "delete_branch",
  "mirror_sync_push",
  "mirror_sync_create",
  "mirror_sync_delete",
  "approve_pull_request",
  "reject_pull_request",
  "comment_pull",
  "publish_release",
  "pull_review_dismissed",
  "pull_request_ready_for_review",
  "auto_merge_pull_request",
] as const;

/** An entry of an activity feed (Forgejo's `Activity`). */
export const Activity = v.object({
  id: int64(),
  user_id: int64(),
  op_type: v.picklist(ACTIVITY_OP_TYPES),
  act_user_id: int64(),
  act_user: User,
  repo_id: int64(),
  repo: Repository,
  comment_id: int64(),
  comment: v.nullable(Comment),
  ref_name: v.string(),
  is_private: v.boolean(),
  content: v.string(),
  created: dateTime(),
});

/** One quarter hour of `GET /users/{username}/heatmap`: its start (Unix seconds) and the count. */
export const UserHeatmapData = v.object({ timestamp: int64(), contributions: int64() });
