import type { PushMirror } from "@kiln/domain";
import { type api, formatTime, type Repository } from "@kiln/domain";
import type * as v from "valibot";
import { formatInterval } from "../mirrors/go-duration.js";

/** A push mirror as Forgejo's `PushMirror` (convert.ToPushMirror); its credentials are never shown. */
export function toApiPushMirror(repo: Repository, row: PushMirror): v.InferOutput<typeof api.PushMirror> {
  return {
    repo_name: repo.name,
    remote_name: row.remoteName,
    remote_address: row.remoteAddress,
    created: formatTime(row.createdAt),
    last_update: row.lastUpdateAt ? formatTime(row.lastUpdateAt) : null,
    last_error: row.lastError,
    interval: formatInterval(row.intervalMs),
    sync_on_commit: row.syncOnCommit,
    public_key: "",
  };
}
