import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HostTimers } from "./timers.js";

describe("HostTimers", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("fires a one-shot timer once with done, then forgets it", () => {
    const fired: [number, boolean][] = [];
    const timers = new HostTimers((id, done) => fired.push([id, done]));
    timers.start(1, false, 10);
    expect(timers.size).toBe(1);
    vi.advanceTimersByTime(25);
    expect(fired).toEqual([[1, true]]);
    expect(timers.size).toBe(0);
  });

  it("repeats an interval without done until it is cleared", () => {
    const fired: [number, boolean][] = [];
    const timers = new HostTimers((id, done) => fired.push([id, done]));
    timers.start(7, true, 5);
    vi.advanceTimersByTime(16);
    expect(fired).toEqual([
      [7, false],
      [7, false],
      [7, false],
    ]);
    timers.clear(7);
    vi.advanceTimersByTime(50);
    expect(fired).toHaveLength(3);
    expect(timers.size).toBe(0);
  });

  it("treats clearing an unknown id as a no-op and a negative duration as zero", () => {
    const fired: number[] = [];
    const timers = new HostTimers((id) => fired.push(id));
    timers.clear(99);
    timers.start(2, false, -5);
    vi.advanceTimersByTime(1);
    expect(fired).toEqual([2]);
  });
});
