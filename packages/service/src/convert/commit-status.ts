import { type api, formatTime, type Repository, type Settings } from "@kiln/domain";
import type * as v from "valibot";
import type { AccountSight } from "../access/account-rules.js";
import type { CommitStatusView } from "../git/commit-status-service.js";
import { repoLinks } from "./git.js";
import { apiUserOrGhost } from "./issue.js";

/** Forgejo's `CommitStatus` for each status of a view, its creator as the viewer may see them. */
export function toApiCommitStatuses(
  view: CommitStatusView,
  repo: Repository,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.CommitStatus>[] {
  const links = repoLinks(repo, settings);
  return view.items.map((status) => ({
    id: status.id,
    status: status.state,
    target_url: status.targetUrl,
    description: status.description,
    url: `${links.api}/statuses/${status.sha}`,
    context: status.context,
    creator: apiUserOrGhost(
      status.creatorId === null ? null : (view.creators.get(status.creatorId) ?? null),
      sight,
      settings,
    ),
    created_at: formatTime(status.createdAt),
    updated_at: formatTime(status.updatedAt),
  }));
}
