import type { CronTask } from "../cron/cron-task.js";
import type { RefJournal } from "./ref-journal.js";

/** How old a journalled ref move must be before the task touches it: no operation runs this long. */
export const REF_MOVE_GRACE_MS = 10 * 60 * 1000;

/**
 * The `reconcile_ref_updates` cron task: finishes or drops the journalled ref moves older than
 * the grace period (a crash left them; start-up reconciles the rest), and removes the ref lock
 * files as old that their writers left.
 */
export function refJournalTask(journal: RefJournal): CronTask {
  return {
    name: "reconcile_ref_updates",
    description: "Finish or drop ref moves a crash left journalled, and remove their stale lock files",
    schedule: "@every 10m",
    async run() {
      const before = new Date(Date.now() - REF_MOVE_GRACE_MS);
      const settled = await journal.reconcile(before);
      return `settled ${settled} journalled operation${settled === 1 ? "" : "s"}`;
    },
  };
}
