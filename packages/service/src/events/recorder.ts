import type { Db } from "@kiln/storage";
import type { ForgeEvent } from "./event.js";

/**
 * Something that acts on every event, inside the transaction of the change: it writes its own
 * rows (hook deliveries, feed entries, …) through `trx` and never commits or talks to the
 * network. Throwing rolls the change back, so a consumer must not fail on bad data it can skip.
 */
export interface EventConsumer {
  readonly name: string;
  consume(trx: Db, event: ForgeEvent): Promise<void>;
}

/**
 * Work on disk or in git that a change causes but that need not hold its transaction or its
 * answer (a pull request re-check, a repository's size): it runs after the change committed.
 * It must be redone by something else when the process dies first (docs/architecture.md, "The
 * change pipeline"), so it may only be work that start-up or a cron task also does.
 */
export interface AfterCommitTask {
  /** What the work is, for the log when it fails. */
  readonly name: string;
  run(): Promise<void>;
}

/**
 * Hands each event to every registered consumer, in registration order, in the caller's
 * transaction. Consumers are registered once, when createServices builds the service layer.
 * It also runs the after-commit stage ({@link afterCommit}): work queued there starts at once,
 * in the background, and {@link settled} waits for all of it.
 */
export class EventRecorder {
  readonly #consumers: EventConsumer[] = [];
  readonly #pending = new Set<Promise<void>>();
  #onFailure: (task: string, error: unknown) => void = () => {};

  /** Who hears of after-commit work that failed (the logger, once it exists). */
  onAfterCommitFailure(report: (task: string, error: unknown) => void): void {
    this.#onFailure = report;
  }

  /**
   * Queues work for after the change's commit: call it once the transaction has committed. It
   * runs in the background; a failure is reported, never thrown to the change.
   */
  afterCommit(task: AfterCommitTask): void {
    const running: Promise<void> = Promise.resolve()
      .then(() => task.run())
      .catch((error: unknown) => this.#onFailure(task.name, error))
      .finally(() => this.#pending.delete(running));
    this.#pending.add(running);
  }

  /**
   * Resolves when no after-commit work is left, including work queued while it waited: for
   * tests that read what that work writes, and for shutdown.
   */
  async settled(): Promise<void> {
    while (this.#pending.size > 0) await Promise.all([...this.#pending]);
  }

  register(consumer: EventConsumer): void {
    if (this.#consumers.some((c) => c.name === consumer.name)) {
      throw new Error(`event consumer ${consumer.name} is already registered`);
    }
    this.#consumers.push(consumer);
  }

  /** Records one event: call it with the transaction's handle, never the instance's. */
  async record(trx: Db, event: ForgeEvent): Promise<void> {
    for (const consumer of this.#consumers) {
      await consumer.consume(trx, event);
    }
  }
}
