import type { CronTask } from "../cron/cron-task.js";
import type { QuotaDoctor } from "./quota-doctor.js";

/**
 * The `check_quota_usage` cron task: `kiln doctor quota` on a schedule. It recounts every owner's
 * usage and reports drift in its message and the log; it repairs nothing (that stays
 * `kiln doctor quota --fix`, an administrator's decision).
 */
export function quotaDoctorTask(
  doctor: QuotaDoctor,
  logger: { warn(obj: object, msg?: string): void },
): CronTask {
  return {
    name: "check_quota_usage",
    description: "Recount every owner's quota usage and report counters that drifted (kiln doctor quota)",
    schedule: "@every 168h",
    async run() {
      const report = await doctor.run({
        fix: false,
        onDrift: (drift) => logger.warn({ ...drift }, "quota usage drift"),
      });
      return report.driftedOwners === 0
        ? `checked ${report.owners} owners: no drift`
        : `checked ${report.owners} owners: ${report.driftedOwners} drifted (run kiln doctor quota --fix)`;
    },
  };
}
