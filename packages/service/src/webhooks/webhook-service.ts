import type { Repository, User } from "@kiln/domain";
import type { HookScope } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { RepoService } from "../repos/repo-service.js";
import { DeliveryWorker } from "./delivery-worker.js";
import { HookService } from "./hook-service.js";
import { PayloadBuilder } from "./payload-builder.js";
import { WebhookQueue } from "./webhook-queue.js";

/**
 * Webhooks end to end: hook CRUD ({@link HookService}), the event consumer that queues deliveries
 * in the transaction of each change ({@link WebhookQueue}), and the worker that sends them
 * ({@link DeliveryWorker}, started by `kiln web`).
 */
export class WebhookService {
  readonly hooks: HookService;
  readonly queue: WebhookQueue;
  readonly worker: DeliveryWorker;

  constructor(
    private readonly ctx: ServiceContext,
    repos: RepoService,
  ) {
    this.hooks = new HookService(ctx);
    this.worker = new DeliveryWorker(ctx, this.hooks);
    this.queue = new WebhookQueue(repos, new PayloadBuilder(ctx.settings), () => this.worker.wake());
    // Deliveries are queued in the transaction of every change, whichever adapter or command made it.
    ctx.events.register(this.queue);
  }

  /** `POST …/hooks/{id}/tests`: queues a push delivery of `ref`'s commit to one repository hook. */
  async test(
    scope: HookScope,
    id: number,
    repo: Repository,
    actor: User,
    ref: string | undefined,
  ): Promise<void> {
    const hook = await this.hooks.row(scope, id);
    await this.ctx.db.transaction().execute((trx) => this.queue.queueTest(trx, hook, repo, actor, ref));
  }
}
