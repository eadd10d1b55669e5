import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { webhooks } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

/** A loopback receiver that holds every request until {@link release}, counting what it got. */
async function slowReceiver() {
  const held: ServerResponse[] = [];
  const ids: string[] = [];
  let releasing = false;
  let arrived: (() => void)[] = [];
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume();
    req.on("end", () => {
      ids.push(String(req.headers["x-forgejo-delivery"]));
      if (releasing) res.end("late");
      else held.push(res);
      for (const wake of arrived.splice(0)) wake();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/slow`,
    ids,
    /** How many requests it holds unanswered right now. */
    get holding() {
      return held.length;
    },
    async until(n: number) {
      while (ids.length < n) await new Promise<void>((resolve) => arrived.push(resolve));
    },
    release() {
      releasing = true;
      for (const res of held.splice(0)) res.end("ok");
    },
    close: () =>
      new Promise<void>((resolve) => {
        arrived = [];
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A loopback receiver that answers at once and resolves `first` with its first delivery id. */
async function fastReceiver() {
  let resolveFirst: (id: string) => void = () => undefined;
  const first = new Promise<string>((resolve) => {
    resolveFirst = resolve;
  });
  const server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.end("ok");
      resolveFirst(String(req.headers["x-forgejo-delivery"]));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/fast`,
    first,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

describe.each(DIALECTS)("the webhook delivery worker on %s", (dialect) => {
  let services: Services;
  let close: () => Promise<void>;

  beforeAll(async () => {
    const opened = await openTestServices(dialect, {
      webhook: { allowedHostList: "loopback", deliverTimeout: 120_000 },
    });
    services = opened.services;
    close = () => opened.database.close();
  });
  afterAll(() => close?.());

  const systemHook = (url: string) =>
    webhooks.insertWebhook(services.ctx.db, {
      repoId: null,
      ownerId: null,
      isSystemWebhook: true,
      type: "forgejo",
      url,
      events: JSON.stringify({ push_only: false, send_everything: true, choose_events: false, events: {} }),
      isActive: true,
    });
  const queue = (hookId: number, n: number) =>
    webhooks.insertHookTasks(
      services.ctx.db,
      Array.from({ length: n }, () => ({
        hookId,
        uuid: randomUUID(),
        eventType: "issues",
        payload: JSON.stringify({ action: "opened" }),
      })),
    );

  it("delivers a fast receiver's webhook while a slow one's queue is still pending, the slow one held to its share", async () => {
    const slow = await slowReceiver();
    const fast = await fastReceiver();
    const worker = services.webhooks.worker;
    try {
      const slowHook = await systemHook(slow.url);
      const fastHook = await systemHook(fast.url);
      // Forty deliveries to the slow receiver are ahead of the fast one's in the queue.
      await queue(slowHook.id, 40);
      await queue(fastHook.id, 1);
      worker.start();
      const delivered = await fast.first;
      const [fastTask] = (await webhooks.listHookTasks(services.ctx.db, fastHook.id, { page: 1, limit: 5 }))
        .items;
      expect(fastTask?.uuid).toBe(delivered);
      // The slow receiver holds what it got, all unanswered: at most its share of the 16 slots.
      expect(slow.holding).toBe(slow.ids.length);
      expect(slow.holding).toBeGreaterThan(0);
      expect(slow.holding).toBeLessThanOrEqual(8);
      const pending = await services.ctx.db
        .selectFrom("hook_task")
        .select((eb) => eb.fn.countAll().as("n"))
        .where("hookId", "=", slowHook.id)
        .where("isDelivered", "=", false)
        .executeTakeFirstOrThrow();
      expect(Number(pending.n)).toBe(40);
      // Once it answers, every one of its deliveries goes out, each once, with its own id.
      slow.release();
      await slow.until(40);
      await worker.stop();
      expect(new Set(slow.ids).size).toBe(40);
      const history = await webhooks.listHookTasks(services.ctx.db, slowHook.id, { page: 1, limit: 50 });
      expect(history.items.every((task) => task.isDelivered && task.isSucceed && task.attempts === 1)).toBe(
        true,
      );
      expect(history.items.map((task) => task.uuid).sort()).toEqual([...slow.ids].sort());
    } finally {
      slow.release();
      await worker.stop();
      await slow.close();
      await fast.close();
    }
  });
});
