import type { Logger } from "../context.js";
import { SWEEP_GRACE_MS } from "../cron/blob-sweep.js";
import type { CronTask } from "../cron/cron-task.js";
import type { DiskDoctor } from "./disk-doctor.js";

/**
 * The `cleanup_disk_leftovers` cron task: `kiln doctor quota --fix`'s disk part in the running
 * server. It removes what pushes and uploads cut short left (untouched for an hour: nothing going
 * on owns it) and writes the measured `git_size` / `lfs_size` of repositories that differ from
 * their disk, recording the change of usage; each finding is logged.
 */
export function diskCleanupTask(doctor: DiskDoctor, logger: Logger): CronTask {
  return {
    name: "cleanup_disk_leftovers",
    description:
      "Remove what interrupted pushes and uploads left on disk (older than an hour) and correct repository sizes that differ from the disk",
    schedule: "@every 24h",
    async run({ signal }) {
      const report = await doctor.run({
        fix: true,
        graceMs: SWEEP_GRACE_MS,
        signal,
        onLeftover: (l) => {
          if (l.removed) logger.info({ kind: l.kind, path: l.path, bytes: l.bytes }, "removed a leftover");
        },
        onDrift: (d) => logger.warn({ ...d }, "corrected a repository size that differed from the disk"),
        onUnreadable: (repo, problem) => logger.warn({ repo, problem }, "could not measure a repository"),
      });
      const removed = report.leftovers.filter((l) => l.removed);
      const bytes = removed.reduce((sum, l) => sum + l.bytes, 0);
      const parts = [
        `removed ${removed.length} leftover${removed.length === 1 ? "" : "s"} (${bytes} bytes)`,
        `corrected ${report.drifts.length} size${report.drifts.length === 1 ? "" : "s"} of ${report.repositories} repositor${report.repositories === 1 ? "y" : "ies"}`,
      ];
      if (report.unreadable > 0) parts.push(`${report.unreadable} could not be read`);
      return parts.join(", ");
    },
  };
}
