import type { CronTask } from "../cron/cron-task.js";
import type { ArtifactService } from "./artifact-service.js";

/**
 * Forgejo's `cleanup_actions` cron task, for what Kiln keeps of Actions: removes the artifacts past
 * their `expires_at` and releases their usage. Readers stop seeing an artifact the moment it
 * expires; its bytes stop counting when this runs, hourly by default (Forgejo: at midnight), or
 * at once with `kiln admin cron run cleanup_actions`. The blob sweep then frees the disk space.
 */
export function artifactExpiryTask(artifacts: ArtifactService): CronTask {
  return {
    name: "cleanup_actions",
    description: "Remove expired Actions artifacts and release the quota they held",
    schedule: "@every 1h",
    async run({ signal }) {
      const { count, bytes } = await artifacts.expire(new Date(), signal);
      return `removed ${count} expired artifact${count === 1 ? "" : "s"} (${bytes} bytes)`;
    },
  };
}
