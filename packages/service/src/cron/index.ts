export { type BlobKind, blobSweepTask, countUnreferenced, SWEEP_GRACE_MS } from "./blob-sweep.js";
export {
  type CronContext,
  CronRegistry,
  type CronRunResult,
  type CronTask,
  type CronTaskInfo,
} from "./cron-registry.js";
export { parseGoDuration, parseSchedule, type Schedule } from "./schedule.js";
