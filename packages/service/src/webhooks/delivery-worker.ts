import { type HookTaskRow, webhooks } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { type AttemptOutcome, deliver } from "./deliver.js";
import type { HookService } from "./hook-service.js";
import { HostMatcher } from "./host-matcher.js";

/** Deliveries one process claims and sends at once. */
const BATCH = 16;
/** How often an idle worker looks for due deliveries (other processes queue too). */
const POLL_MS = 1_000;
/** A claim outlives the delivery's timeout by this much before another process may take the row. */
const LEASE_MARGIN_MS = 30_000;

/**
 * Sends queued deliveries: claims due `hook_task` rows (FOR UPDATE SKIP LOCKED, so processes
 * sharing one PostgreSQL never take the same row), sends each once, and records the outcome. A
 * failure is retried after `[webhook] RETRY_BACKOFF` doubling per attempt, up to `MAX_RETRIES`
 * times, with the same delivery id; a target the allow list refuses is not retried. A row left
 * claimed by a killed process is due again once its claim lapses.
 */
export class DeliveryWorker {
  #timer: NodeJS.Timeout | undefined;
  #running: Promise<void> | undefined;
  #stopped = true;
  #again = false;
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
    this.#schedule(0);
  }

  /** Stops polling and waits for the deliveries in flight (each bounded by DELIVER_TIMEOUT). */
  async stop(): Promise<void> {
    this.#stopped = true;
    clearTimeout(this.#timer);
    await this.#running;
  }

  /** A delivery was queued in this process: look soon rather than at the next poll. */
  wake(): void {
    if (this.#stopped) return;
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#schedule(20);
  }

  #schedule(ms: number): void {
    clearTimeout(this.#timer);
    this.#timer = setTimeout(() => void this.#tick(), ms);
    this.#timer.unref?.();
  }

  async #tick(): Promise<void> {
    if (this.#stopped || this.#running) return;
    let busy = false;
    this.#running = (async () => {
      try {
        busy = (await this.runOnce()) > 0;
      } catch (err) {
        this.ctx.logger.error({ err: (err as Error).message }, "webhook delivery round failed");
      }
    })();
    await this.#running;
    this.#running = undefined;
    const again = this.#again || busy;
    this.#again = false;
    if (!this.#stopped) this.#schedule(again ? 0 : POLL_MS);
  }

  /** Claims one batch of due deliveries and sends them; returns how many were claimed. */
  async runOnce(): Promise<number> {
    const settings = this.ctx.settings.webhook;
    const tasks = await webhooks.claimDueTasks(this.ctx.db, BATCH, settings.deliverTimeout + LEASE_MARGIN_MS);
    await Promise.all(tasks.map((task) => this.#attempt(task)));
    return tasks.length;
  }

  async #attempt(task: HookTaskRow): Promise<void> {
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
