import type { Logger } from "../context.js";

/** What a task gets when it runs. */
export interface CronContext {
  /** Aborted when the server stops: long tasks should check it between steps. */
  readonly signal: AbortSignal;
  readonly logger: Logger;
}

/**
 * A periodic task (Forgejo's services/cron): a name (`[a-z0-9_]+`, the key of its
 * `[cron.<name>]` section, `kiln admin cron run <name>` and `POST /admin/cron/<name>`), a default
 * schedule, and the work, which resolves with a one-line summary. A feature registers its tasks
 * with {@link CronRegistry.register} when the services are built.
 */
export interface CronTask {
  readonly name: string;
  readonly description: string;
  /** The default `SCHEDULE` (see parseSchedule), e.g. `@every 24h` or `@midnight`. */
  readonly schedule: string;
  /** Default `ENABLED` (true): whether `kiln web` runs it on its schedule. */
  readonly enabled?: boolean;
  /** Default `RUN_AT_START` (false): whether `kiln web` runs it once when it starts. */
  readonly runAtStart?: boolean;
  run(context: CronContext): Promise<string>;
}
