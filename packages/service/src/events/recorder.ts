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
 * Hands each event to every registered consumer, in registration order, in the caller's
 * transaction. Consumers are registered once at start-up (createServices registers the service
 * layer's own; the HTTP layer adds the webhook queue, which needs the API converters).
 */
export class EventRecorder {
  readonly #consumers: EventConsumer[] = [];

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
