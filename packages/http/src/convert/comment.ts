import { type api, formatTime, type Repository, type Settings, type User } from "@kiln/domain";
import type { CommentView } from "@kiln/service";
import type * as v from "valibot";
import { repoLinks } from "./git.js";
import { apiUserOrGhost } from "./issue.js";

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
): v.InferOutput<typeof api.Comment> {
  const { html } = repoLinks(repo, settings);
  const page = `${html}/${view.isPull ? "pulls" : "issues"}/${view.issueIndex}`;
  return {
    id: view.comment.id,
    html_url: `${page}#issuecomment-${view.comment.id}`,
    pull_request_url: view.isPull ? page : "",
    issue_url: view.isPull ? "" : page,
    user: apiUserOrGhost(poster, null, settings),
    original_author: "",
    original_author_id: 0,
    body: view.comment.content,
    assets: [],
    created_at: formatTime(view.comment.createdAt),
    updated_at: formatTime(view.comment.updatedAt),
  };
}
