import * as v from "valibot";
import { dateTime, int64 } from "./primitives.js";

/** The run an artifact belongs to, as Gitea 1.23's `ActionWorkflowRun` (its three fields). */
export const ActionWorkflowRun = v.object({
  id: int64(),
  repository_id: int64(),
  head_sha: v.string(),
});

/** An Actions artifact, as Gitea 1.23's `ActionArtifact` (`size_in_bytes`: the zip's size). */
export const ActionArtifact = v.object({
  id: int64(),
  name: v.string(),
  size_in_bytes: int64(),
  url: v.string(),
  archive_download_url: v.string(),
  expired: v.boolean(),
  workflow_run: ActionWorkflowRun,
  created_at: dateTime(),
  updated_at: dateTime(),
  expires_at: dateTime(),
});

/** A page of artifacts with their total, as Gitea 1.23's `ActionArtifactsResponse`. */
export const ActionArtifactsResponse = v.object({
  total_count: int64(),
  artifacts: v.array(ActionArtifact),
});
