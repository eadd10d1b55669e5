import { type ClaimedHookTask, webhooks } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { type AttemptOutcome, deliver } from "./deliver.js";
import type { HookService } from "./hook-service.js";
import { HostMatcher } from "./host-matcher.js";
import { SlotPool } from "./slot-pool.js";

/** Deliveries one process sends at once. */
const SLOTS = 16;
/** How often an idle worker looks for due deliveries (other processes queue too, retries fall due). */
const POLL_MS = 1_000;
/** A claim outlives the delivery's timeout by this much before another process may take the row. */
const LEASE_MARGIN_MS = 30_000;
/**
 * After a wake, claims that find nothing are tried again this much later, one after the other:
 * the queue wakes the worker inside the change's transaction, so on PostgreSQL the first claim
 * may run before the delivery's row is committed.
 */
const WAKE_RETRIES_MS = [25, 100, 400] as const;

/**
 * Sends queued deliveries with a bounded pool of {@link SLOTS} slots: whenever a slot frees it
 * claims the next due `hook_task` rows (FOR UPDATE SKIP LOCKED, so processes sharing one
 * PostgreSQL never take the same row), so one slow receiver never holds up the others' batch.
 * A receiver (`host[:port]` of the hook's URL) holds at most its share of the slots
 * ({@link SlotPool.shareOf}); its further deliveries wait, due, while other receivers' go out.
 * Each delivery is sent once per claim and its outcome recorded; a failure is retried after
 * `[webhook] RETRY_BACKOFF` doubling per attempt, up to `MAX_RETRIES` times, with the same
 * delivery id; a target the allow list refuses is not retried. A row left claimed by a killed
 * process is due again once its claim lapses.
 */
export class DeliveryWorker {
  #timer: NodeJS.Timeout | undefined;
  #stopped = true;
  #claiming: Promise<void> | undefined;
  #again = false;
  #wakeTries = 0;
  readonly #pool = new SlotPool(SLOTS);
  readonly #inFlight = new Set<Promise<void>>();
  readonly #matcher: HostMatcher;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly hooks: HookService,
  ) {
    this.#matcher = new HostMatcher(ctx.settings.webhook.allowedHostList);
  }

  start(): void {
    if (!this.#stopped) return;
    this.#stopped = false;
    if (this.ctx.settings.webhook.proxyUrl) {
      this.ctx.logger.warn(
        { proxyUrl: this.ctx.settings.webhook.proxyUrl },
        "[webhook] PROXY_URL is set, but Kiln delivers webhooks directly (the allow list is checked on the target)",
      );
    }
    this.#fill();
  }

  /** Stops claiming and waits for the deliveries in flight (each bounded by DELIVER_TIMEOUT). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#claiming;
    await Promise.all([...this.#inFlight]);
  }

  /** A delivery was queued in this process: look now (and shortly after) rather than at the next poll. */
  wake(): void {
    this.#wakeTries = WAKE_RETRIES_MS.length;
    this.#fill();
  }

  /**
   * Claims what the free slots allow (receivers at their share left out) and waits for those
   * deliveries; returns how many were sent. For tests and one-off runs of a stopped worker.
   */
  async runOnce(): Promise<number> {
    const started = await this.#claimRound();
    await Promise.all(started);
    return started.length;
  }

  /** Claims into free slots now, or once the claim under way is done. */
  #fill(): void {
    if (this.#stopped) return;
    if (this.#claiming) {
      this.#again = true;
      return;
    }
    this.#claiming = (async () => {
      let started = 0;
      try {
        do {
          this.#again = false;
          started = (await this.#claimRound()).length;
        } while (this.#again && !this.#stopped);
      } catch (err) {
        this.ctx.logger.error({ err: (err as Error).message }, "webhook delivery claim failed");
      } finally {
        this.#claiming = undefined;
        let delay: number = POLL_MS;
        if (started > 0 || this.#pool.free === 0) this.#wakeTries = 0;
        else if (this.#wakeTries > 0) {
          delay = WAKE_RETRIES_MS[WAKE_RETRIES_MS.length - this.#wakeTries] ?? POLL_MS;
          this.#wakeTries -= 1;
        }
        if (!this.#stopped) {
          clearTimeout(this.#timer);
          this.#timer = setTimeout(() => this.#fill(), delay);
          this.#timer.unref?.();
        }
      }
    })();
  }

  /**
   * Fills the free slots: claims due deliveries of receivers below their share, starts those a
   * slot may take and gives back the rest (a receiver reaching its share within one claim), then
   * claims again for the slots still free, now without that receiver. Returns the started sends.
   */
  async #claimRound(): Promise<Promise<void>[]> {
    const settings = this.ctx.settings.webhook;
    const started: Promise<void>[] = [];
    for (;;) {
      const free = this.#pool.free;
      if (free <= 0) return started;
      const tasks = await webhooks.claimDueTasks(
        this.ctx.db,
        free,
        settings.deliverTimeout + LEASE_MARGIN_MS,
        this.#pool.fullHosts(),
      );
      const released: number[] = [];
      for (const task of tasks) {
        if (this.#pool.take(task.host)) started.push(this.#send(task));
        else released.push(task.id);
      }
      await webhooks.releaseClaims(this.ctx.db, released);
      // Fewer rows than slots means nothing else is due; given-back rows' receivers are full now.
      if (released.length === 0 || tasks.length === 0) return started;
    }
  }

  #send(task: ClaimedHookTask): Promise<void> {
    const sending = this.#attempt(task)
      .catch((err: unknown) => {
        this.ctx.logger.error(
          { delivery: task.uuid, err: (err as Error).message },
          "webhook delivery failed",
        );
      })
      .finally(() => {
        this.#pool.give(task.host);
        this.#inFlight.delete(sending);
        this.#fill();
      });
    this.#inFlight.add(sending);
    return sending;
  }

  async #attempt(task: ClaimedHookTask): Promise<void> {
    const settings = this.ctx.settings.webhook;
    const hook = await webhooks.findWebhookById(this.ctx.db, task.hookId);
    if (!hook) return;
    let outcome: AttemptOutcome;
    try {
      outcome = await deliver(task, hook, {
        allowed: this.#matcher,
        timeoutMs: settings.deliverTimeout,
        skipTlsVerify: settings.skipTlsVerify,
        secret: this.hooks.secretOf(hook),
        authorization: this.hooks.authorizationOf(hook),
        userAgent: "Kiln",
      });
    } catch (err) {
      outcome = {
        succeeded: false,
        refused: false,
        request: { url: hook.url, http_method: hook.httpMethod, headers: {} },
        response: { status: 0, headers: {}, body: (err as Error).message },
      };
    }
    const retry = !outcome.succeeded && !outcome.refused && task.attempts <= settings.maxRetries;
    const retryAt = retry ? new Date(Date.now() + settings.retryBackoff * 2 ** (task.attempts - 1)) : null;
    if (!outcome.succeeded) {
      this.ctx.logger.warn(
        {
          hook: hook.id,
          delivery: task.uuid,
          attempt: task.attempts,
          status: outcome.response.status,
          retry,
        },
        "webhook delivery failed",
      );
    }
    await webhooks.finishAttempt(this.ctx.db, task.id, {
      succeeded: outcome.succeeded,
      retryAt,
      request: JSON.stringify(outcome.request),
      response: JSON.stringify(outcome.response),
    });
  }
}
