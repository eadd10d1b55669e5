import { describe, expect, it } from "vitest";
import { SlotPool } from "./slot-pool.js";

describe("the delivery slots", () => {
  it("lets a receiver alone hold half the slots, and shrinks the share as others arrive", () => {
    const pool = new SlotPool(16);
    let slow = 0;
    while (pool.take("slow:1")) slow += 1;
    expect(slow).toBe(8);
    expect(pool.fullHosts()).toEqual(["slow:1"]);
    expect(pool.take("fast:2")).toBe(true);
    expect(pool.shareOf("fast:2")).toBe(5);
    expect(pool.shareOf("slow:1")).toBe(5);
    pool.give("fast:2");
    expect(pool.free).toBe(8);
    expect(pool.shareOf("slow:1")).toBe(8);
  });

  it("keeps the last free slot for a receiver holding none, however many slow ones hold the rest", () => {
    const pool = new SlotPool(16);
    const fill = (host: string) => {
      let n = 0;
      while (pool.take(host)) n += 1;
      return n;
    };
    expect([fill("s1"), fill("s2"), fill("s3")]).toEqual([8, 5, 2]);
    expect(pool.free).toBe(1);
    expect(pool.fullHosts().sort()).toEqual(["s1", "s2", "s3"]);
    expect(pool.take("newcomer")).toBe(true);
    expect(pool.take("other")).toBe(false);
  });

  it("never hands out more slots than it has", () => {
    const pool = new SlotPool(2);
    expect(pool.take("a")).toBe(true);
    expect(pool.take("a")).toBe(false);
    expect(pool.take("b")).toBe(true);
    expect(pool.take("c")).toBe(false);
    expect(pool.free).toBe(0);
  });
});
