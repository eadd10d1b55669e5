import type { Settings } from "@kiln/domain";
import { actionTypeName, type api, formatTime } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { FeedEntry } from "../feed/feed-service.js";
import { toApiComment } from "./comment.js";
import { apiUserOrGhost } from "./issue.js";

type ApiActivity = v.InferOutput<typeof api.Activity>;

/**
 * A feed entry in Forgejo's `Activity` shape (services/convert.ToActivity): the actor as `sight`
 * lets the reader see them, the repository as the caller shaped it for the reader (with their
 * permission), the comment when there is one. `op_type` is the ActionType's name.
 */
export function toApiActivity(
  entry: FeedEntry,
  repo: v.InferOutput<typeof api.Repository>,
  sight: AccountSight,
  settings: Settings,
): ApiActivity {
  const { action, actUser, comment } = entry;
  return {
    id: Number(action.id),
    user_id: Number(action.userId),
    op_type: actionTypeName(action.opType) as ApiActivity["op_type"],
    act_user_id: Number(action.actUserId ?? 0),
    act_user: apiUserOrGhost(actUser, sight, settings),
    repo_id: entry.repo.id,
    repo,
    comment_id: comment ? Number(action.commentId) : 0,
    comment: comment
      ? toApiComment(comment, entry.repo, comment.comment.posterId === actUser?.id ? actUser : null, settings)
      : null,
    ref_name: action.refName,
    is_private: action.isPrivate,
    content: action.content,
    created: formatTime(action.createdAt),
  };
}
