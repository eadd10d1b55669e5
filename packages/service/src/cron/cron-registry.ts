import type { CronTaskSettings } from "@kiln/domain";
import type { Logger } from "../context.js";
import { type BlobKind, blobSweepTask } from "./blob-sweep.js";
import type { CronTask } from "./cron-task.js";
import { parseSchedule, type Schedule } from "./schedule.js";

export type { CronContext, CronTask } from "./cron-task.js";

/** What `GET /admin/cron` and `kiln admin cron list` show of a task. */
export interface CronTaskInfo {
  readonly name: string;
  readonly description: string;
  /** The schedule in force, or `-` when the task is not scheduled (disabled). */
  readonly schedule: string;
  readonly next: Date | null;
  readonly prev: Date | null;
  readonly execTimes: number;
  readonly running: boolean;
  readonly lastStatus: "finished" | "error" | null;
  readonly lastMessage: string;
}

/** How one run ended. */
export interface CronRunResult {
  readonly name: string;
  readonly status: "finished" | "error";
  readonly message: string;
  readonly ms: number;
}

interface Entry {
  readonly task: CronTask;
  readonly schedule: Schedule;
  readonly spec: string;
  readonly enabled: boolean;
  readonly runAtStart: boolean;
  next: Date | null;
  prev: Date | null;
  execTimes: number;
  running: Promise<CronRunResult> | undefined;
  lastStatus: "finished" | "error" | null;
  lastMessage: string;
  timer: NodeJS.Timeout | undefined;
}

/** setTimeout's largest delay; longer waits are taken in steps. */
const MAX_DELAY = 2 ** 31 - 1;
const NAME = /^[a-z0-9_]+$/;

/**
 * The cron tasks of an instance. `kiln web` starts the scheduler (`[cron] ENABLED`); each task
 * runs on its schedule, at start-up when asked, from `kiln admin cron run` and from
 * `POST /admin/cron/{task}`. A task never runs twice at once: asking for a run while one is going
 * on joins it. Each task's `[cron.<name>]` section may change `ENABLED`, `RUN_AT_START` and
 * `SCHEDULE`.
 */
export class CronRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly kinds: BlobKind[] = [];
  private controller = new AbortController();
  private started = false;

  constructor(
    private readonly settings: {
      readonly enabled: boolean;
      readonly tasks: Readonly<Record<string, CronTaskSettings>>;
    },
    private readonly logger: Logger,
  ) {}

  /** Adds a task; its schedule (default or configured) must parse. A name is registered once. */
  register(task: CronTask): void {
    if (!NAME.test(task.name))
      throw new Error(`cron task name ${JSON.stringify(task.name)} is not [a-z0-9_]+`);
    if (this.entries.has(task.name)) throw new Error(`cron task ${task.name} is registered twice`);
    const configured = this.settings.tasks[task.name] ?? {};
    const spec = configured.schedule ?? task.schedule;
    const entry: Entry = {
      task,
      schedule: parseSchedule(spec),
      spec,
      enabled: configured.enabled ?? task.enabled ?? true,
      runAtStart: configured.runAtStart ?? task.runAtStart ?? false,
      next: null,
      prev: null,
      execTimes: 0,
      running: undefined,
      lastStatus: null,
      lastMessage: "",
      timer: undefined,
    };
    this.entries.set(task.name, entry);
    if (this.started) this.arm(entry, true);
  }

  /**
   * Registers a kind of stored bytes (attachments, packages, artifacts): its sweep becomes the task
   * `sweep_<kind>` and runs at start-up with no grace period ({@link sweepBlobsAtStartup}).
   */
  registerBlobKind(kind: BlobKind): void {
    this.register(blobSweepTask(kind));
    this.kinds.push(kind);
  }

  /** The registered kinds of stored bytes, for the sweeps and `kiln doctor`. */
  blobKinds(): readonly BlobKind[] {
    return this.kinds;
  }

  /**
   * Sweeps every kind of stored bytes with no grace period: unfinished uploads and blobs no row
   * refers to go. Only when nothing can be uploading: `kiln web` calls it before it listens.
   */
  async sweepBlobsAtStartup(): Promise<void> {
    for (const kind of this.kinds) {
      const removed = await kind.store.sweep(kind.referenced, 0);
      if (removed > 0) this.logger.info({ kind: kind.name, removed }, "removed unreferenced stored files");
    }
  }

  has(name: string): boolean {
    return this.entries.has(name);
  }

  /** Every task, in registration order. */
  list(): CronTaskInfo[] {
    return [...this.entries.values()].map((e) => ({
      name: e.task.name,
      description: e.task.description,
      schedule: e.enabled ? e.spec : "-",
      next: e.next,
      prev: e.prev,
      execTimes: e.execTimes,
      running: e.running !== undefined,
      lastStatus: e.lastStatus,
      lastMessage: e.lastMessage,
    }));
  }

  /** Runs a task now (joining a run already going on); undefined when there is no such task. */
  run(name: string): Promise<CronRunResult> | undefined {
    const entry = this.entries.get(name);
    return entry ? this.runEntry(entry) : undefined;
  }

  /** Starts the schedules of enabled tasks (`[cron] ENABLED`) and runs those set to run at start. */
  start(): void {
    if (this.started || !this.settings.enabled) return;
    this.started = true;
    this.controller = new AbortController();
    for (const entry of this.entries.values()) this.arm(entry, true);
  }

  /** Stops the schedules, aborts runs going on and waits for them to end. */
  async stop(): Promise<void> {
    this.started = false;
    this.controller.abort();
    const running: Promise<unknown>[] = [];
    for (const entry of this.entries.values()) {
      clearTimeout(entry.timer);
      entry.timer = undefined;
      entry.next = null;
      if (entry.running) running.push(entry.running);
    }
    await Promise.allSettled(running);
  }

  private arm(entry: Entry, atStart: boolean): void {
    if (!entry.enabled) return;
    if (atStart && entry.runAtStart) void this.runEntry(entry);
    entry.next = entry.schedule.next(new Date());
    this.wait(entry);
  }

  private wait(entry: Entry): void {
    const next = entry.next;
    if (!next || !this.started) return;
    const delay = Math.max(0, next.getTime() - Date.now());
    entry.timer = setTimeout(
      () => {
        if (!this.started) return;
        if (Date.now() < next.getTime()) return this.wait(entry);
        void this.runEntry(entry);
        entry.next = entry.schedule.next(new Date());
        this.wait(entry);
      },
      Math.min(delay, MAX_DELAY),
    );
    entry.timer.unref();
  }

  private runEntry(entry: Entry): Promise<CronRunResult> {
    if (entry.running) return entry.running;
    const started = Date.now();
    entry.execTimes++;
    entry.prev = new Date(started);
    const name = entry.task.name;
    const signal = this.controller.signal;
    entry.running = (async (): Promise<CronRunResult> => {
      try {
        const message = await entry.task.run({ signal, logger: this.logger });
        this.logger.info({ task: name, ms: Date.now() - started }, `cron task ${name}: ${message}`);
        return { name, status: "finished" as const, message, ms: Date.now() - started };
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        this.logger.error({ task: name, err: message }, `cron task ${name} failed`);
        return { name, status: "error" as const, message, ms: Date.now() - started };
      }
    })().then((result) => {
      entry.running = undefined;
      entry.lastStatus = result.status;
      entry.lastMessage = result.message;
      return result;
    });
    return entry.running;
  }
}
