import { describe, expect, it } from "vitest";
import { GitBusyError } from "../errors/git-error.js";
import { Slots } from "./slots.js";

const tick = () => new Promise((resolve) => setImmediate(resolve));

describe("fair slots", () => {
  it("hold at most the limit, queue the rest, and serve other keys before a busy key's backlog", async () => {
    const slots = new Slots("test", { limit: 2, perKey: 2, timeout: 60_000, maxWaiting: 100 });
    const order: string[] = [];
    const held = [await slots.acquire("hostile"), await slots.acquire("hostile")];
    // Each waiter does its work and lets go as soon as it has its slot.
    const waits = [
      ...Array.from({ length: 5 }, (_, i) =>
        slots.acquire("hostile").then((release) => {
          order.push(`hostile${i}`);
          release();
        }),
      ),
      slots.acquire("other").then((release) => {
        order.push("other");
        release();
      }),
    ];
    await tick();
    expect(slots.active).toBe(2);
    expect(slots.waiting).toBe(6);
    // One slot frees: after one of the busy key's waiters, the other repository's turn comes.
    held[0]?.();
    await Promise.all(waits);
    expect(order).toEqual(["hostile0", "other", "hostile1", "hostile2", "hostile3", "hostile4"]);
    held[1]?.();
    expect(slots.active).toBe(0);
  });

  it("keep one key under its own cap while other keys use the rest", async () => {
    const slots = new Slots("test", { limit: 4, perKey: 1, timeout: 60_000, maxWaiting: 100 });
    const a = await slots.acquire("a");
    let second = false;
    const waiting = slots.acquire("a").then((release) => {
      second = true;
      return release;
    });
    const b = await slots.acquire("b");
    await tick();
    expect(second).toBe(false);
    a();
    (await waiting)();
    expect(second).toBe(true);
    b();
  });

  it("refuse with GitBusyError after the timeout, or at once when the queue is full", async () => {
    const slots = new Slots("test", { limit: 1, timeout: 20, maxWaiting: 1 });
    const held = await slots.acquire("x");
    const late = slots.acquire("y");
    await expect(slots.acquire("z")).rejects.toBeInstanceOf(GitBusyError);
    await expect(late).rejects.toBeInstanceOf(GitBusyError);
    expect(slots.waiting).toBe(0);
    held();
    (await slots.acquire("y"))();
  });
});
