import { webhooks } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { CronTask } from "../cron/cron-task.js";

/** How long finished deliveries stay in a hook's history (Forgejo's OLDER_THAN default, 168h). */
export const HOOK_TASK_KEEP_MS = 7 * 24 * 3600 * 1000;

/**
 * Forgejo's `cleanup_hook_task_table` cron task: removes deliveries finished (sent, or given up)
 * more than a week ago, so the queue table holds what is pending and a recent history. Deliveries
 * still waiting or retrying are never removed.
 */
export function hookTaskCleanupTask(ctx: ServiceContext): CronTask {
  return {
    name: "cleanup_hook_task_table",
    description: "Remove webhook deliveries finished more than a week ago",
    schedule: "@midnight",
    async run() {
      const count = await webhooks.deleteFinishedTasks(ctx.db, new Date(Date.now() - HOOK_TASK_KEEP_MS));
      return `removed ${count} finished webhook deliver${count === 1 ? "y" : "ies"}`;
    },
  };
}
