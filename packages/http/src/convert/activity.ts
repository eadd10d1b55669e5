import { actionTypeName, type api, formatTime } from "@kiln/domain";
import type { FeedEntry } from "@kiln/service";
import type * as v from "valibot";
import type { AppContext } from "../env.js";
import { apiRepos } from "../routes/repo/context.js";
import { toApiComment } from "./comment.js";
import { apiUserOrGhost } from "./issue.js";

type ApiActivity = v.InferOutput<typeof api.Activity>;

/**
 * Feed entries in Forgejo's `Activity` shape (services/convert.ToActivity): the actor as the
 * viewer may see them, the repository with the viewer's permission (one query for the page),
 * the comment when there is one. `op_type` is the ActionType's name.
 */
export async function apiActivities(c: AppContext, entries: readonly FeedEntry[]): Promise<ApiActivity[]> {
  const settings = c.get("settings");
  const viewer = c.get("actor").user;
  const repos = [...new Map(entries.map((e) => [e.repo.id, e.repo])).values()];
  const repoJson = new Map((await apiRepos(c, repos)).map((json) => [json.id, json]));
  return entries.flatMap(({ action, actUser, repo, comment }) => {
    const json = repoJson.get(repo.id);
    if (!json) return [];
    return [
      {
        id: Number(action.id),
        user_id: Number(action.userId),
        op_type: actionTypeName(action.opType) as ApiActivity["op_type"],
        act_user_id: Number(action.actUserId ?? 0),
        act_user: apiUserOrGhost(actUser, viewer, settings),
        repo_id: repo.id,
        repo: json,
        comment_id: comment ? Number(action.commentId) : 0,
        comment: comment
          ? toApiComment(comment, repo, comment.comment.posterId === actUser?.id ? actUser : null, settings)
          : null,
        ref_name: action.refName,
        is_private: action.isPrivate,
        content: action.content,
        created: formatTime(action.createdAt),
      },
    ];
  });
}
