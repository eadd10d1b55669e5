import type { ServiceContext } from "../context.js";
import type { CronTask } from "../cron/cron-task.js";
import type { QuotaService } from "../quota/quota-service.js";
import type { PullMirrorService } from "./pull-mirror-service.js";
import type { PushMirrorService } from "./push-mirror-service.js";

/** Forgejo's `[cron.update_mirrors] PULL_LIMIT` and `PUSH_LIMIT` defaults: mirrors synced per run. */
const PULL_LIMIT = 50;
const PUSH_LIMIT = 50;

/**
 * Forgejo's `update_mirrors` cron task (`@every 10m`): syncs the pull mirrors whose next update is
 * due and pushes to the push mirrors whose interval has passed, one at a time, stopping between
 * mirrors when the server stops. Nothing runs while `[mirror] ENABLED = false`; a pull mirror whose
 * owner is over quota (with `[quota] ENFORCE`) is skipped, as in Forgejo. A skipped or failed pull
 * mirror waits its interval again, so the same rows are not picked first by every run.
 */
export function updateMirrorsTask(
  ctx: ServiceContext,
  pull: PullMirrorService,
  push: PushMirrorService,
  quota: QuotaService,
): CronTask {
  return {
    name: "update_mirrors",
    description: "Update mirrors",
    schedule: "@every 10m",
    async run({ signal }) {
      if (!ctx.settings.mirror.enabled) return "mirrors are disabled ([mirror] ENABLED = false)";
      let pulled = 0;
      let failed = 0;
      let skipped = 0;
      for (const row of await pull.due(PULL_LIMIT)) {
        if (signal.aborted) break;
        const repo = await pull.repository(row.repoId);
        if (!repo) continue;
        if (await quota.exceeds({ id: repo.ownerId, name: repo.ownerName }, "size:repos:all")) {
          skipped++;
          await pull.scheduleNext(row);
          continue;
        }
        const outcome = await pull.sync(row.repoId, signal);
        if (outcome.ok) pulled++;
        else failed++;
      }
      let pushed = 0;
      for (const row of await push.due(PUSH_LIMIT)) {
        if (signal.aborted) break;
        const after = await push.sync(row.id, signal);
        if (after && after.lastError === "") pushed++;
        else failed++;
      }
      return `synced ${pulled} pull mirror(s), pushed ${pushed} push mirror(s), ${failed} failed, ${skipped} over quota`;
    },
  };
}
