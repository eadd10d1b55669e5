import type { Logger } from "@kiln/service";
import { connectionLossReason, type KilnDb, pingDatabase } from "@kiln/storage";

/** The longest wait between two tries, however many were made. */
const MAX_BACKOFF_MS = 30_000;

/** How `kiln web` waits for a PostgreSQL server that is not reachable yet. */
export interface WaitOptions {
  /** Tries after the first (`[database] DB_RETRIES`). */
  readonly retries: number;
  /** Wait before the first retry, doubled after each (`[database] DB_RETRY_BACKOFF`), at most 30 s. */
  readonly backoff: number;
}

/**
 * Resolves once the database answers. While it cannot be reached (refused, starting up, lost), logs
 * why and when it tries again, waiting longer each time; after `retries` retries it gives up with
 * an error that says so. Any other error (bad credentials, a missing database) is thrown at once:
 * waiting would not fix it.
 */
export async function waitForDatabase(db: KilnDb, options: WaitOptions, logger: Logger): Promise<void> {
  let wait = Math.max(1, options.backoff);
  for (let attempt = 0; ; attempt++) {
    try {
      await pingDatabase(db);
      if (attempt > 0) logger.info({ attempts: attempt + 1 }, "the database is reachable");
      return;
    } catch (err) {
      const reason = connectionLossReason(err);
      if (reason === undefined) throw err;
      if (attempt >= options.retries) {
        throw new Error(
          `cannot reach the database after ${attempt + 1} tries (${reason}); giving up. ` +
            "Check that PostgreSQL is running and that [database] HOST (or DATABASE_URL) points at it; " +
            "[database] DB_RETRIES and DB_RETRY_BACKOFF set how long kiln web waits.",
        );
      }
      logger.warn(
        { reason, attempt: attempt + 1, of: options.retries + 1, retryInMs: wait },
        `cannot reach the database (${reason}); trying again in ${wait} ms (try ${attempt + 1} of ${options.retries + 1})`,
      );
      await new Promise((resolve) => setTimeout(resolve, wait));
      wait = Math.min(wait * 2, MAX_BACKOFF_MS);
    }
  }
}
