import { type ActionArtifact, type api, formatTime, type Repository, type Settings } from "@kiln/domain";
import type * as v from "valibot";

/**
 * An artifact as Gitea 1.23's `ToActionArtifact` shows it: its API URL and its zip's, the run it
 * belongs to. `expired` is always false here: an expired artifact is gone for every reader.
 */
export function toApiActionArtifact(
  artifact: ActionArtifact,
  repo: Pick<Repository, "ownerName" | "name">,
  settings: Settings,
): v.InferOutput<typeof api.ActionArtifact> {
  const url = `${settings.server.rootUrl}api/v1/repos/${repo.ownerName}/${repo.name}/actions/artifacts/${artifact.id}`;
  return {
    id: artifact.id,
    name: artifact.name,
    size_in_bytes: artifact.size,
    url,
    archive_download_url: `${url}/zip`,
    expired: false,
    workflow_run: { id: artifact.runId, repository_id: artifact.repoId, head_sha: artifact.headSha },
    created_at: formatTime(artifact.createdAt),
    updated_at: formatTime(artifact.updatedAt),
    expires_at: formatTime(artifact.expiresAt),
  };
}
