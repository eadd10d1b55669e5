import { describe, expect, it } from "vitest";
import { KeyedQueue } from "./keyed-queue.js";

describe("keyed queue", () => {
  it("runs at most `concurrency` jobs at once and joins a key already queued or running", async () => {
    const queue = new KeyedQueue<number, number>(2);
    let running = 0;
    let most = 0;
    let started = 0;
    // The jobs hold their slots until the test opens the gate, so the queue is seen full.
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const job = (n: number) => async () => {
      started++;
      running++;
      most = Math.max(most, running);
      await gate;
      running--;
      return n;
    };
    const runs = [1, 2, 3, 4, 5, 3, 5].map((n) => queue.run(n, job(n)));
    expect(queue.size).toBe(5);
    open();
    expect(await Promise.all(runs)).toEqual([1, 2, 3, 4, 5, 3, 5]);
    expect([most, started, queue.size]).toEqual([2, 5, 0]);
  });

  it("frees a slot when a job fails, and idle() waits for queued jobs", async () => {
    const queue = new KeyedQueue<string, string>(1);
    const failed = queue.run("a", async () => {
      throw new Error("no");
    });
    let done = false;
    void queue.run("b", async () => {
      done = true;
      return "b";
    });
    await expect(failed).rejects.toThrow("no");
    await queue.idle();
    expect(done).toBe(true);
  });
});
