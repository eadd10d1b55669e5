import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { HostTimers, TooManyTimersError } from "./timers.js";

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

  it("fires in Node's order: earliest due first, timers of one duration in the order they started", () => {
    const fired: number[] = [];
    const timers = new HostTimers((id) => fired.push(id));
    timers.start(1, false, 20);
    timers.start(2, false, 5);
    timers.start(3, false, 0);
    timers.start(4, false, 20);
    timers.start(5, false, 5);
    timers.start(6, false, 1);
    vi.advanceTimersByTime(30);
    expect(fired).toEqual([3, 6, 2, 5, 1, 4]);
  });

  it("times timers started together from one start time, however far the clock moved meanwhile", () => {
    const fired: number[] = [];
    let clock = 0;
    const timers = new HostTimers(
      (id) => fired.push(id),
      Number.POSITIVE_INFINITY,
      () => clock,
    );
    const batch = timers.clock();
    timers.start(30, false, 30, batch);
    clock += 15; // the host was held up between two messages of one batch
    timers.start(20, false, 20, batch);
    clock = 40;
    vi.advanceTimersByTime(40);
    expect(fired).toEqual([20, 30]);
  });

  it("keeps one Node timer for any number of script timers, and none once they are all gone", () => {
    const fired: number[] = [];
    const timers = new HostTimers((id) => fired.push(id));
    for (let id = 1; id <= 10_000; id++) timers.start(id, false, id % 3);
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(5);
    expect(fired).toHaveLength(10_000);
    expect(timers.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("replaces a timer started again with the same id, and holds nothing for cleared ones", () => {
    const fired: [number, boolean][] = [];
    const timers = new HostTimers((id, done) => fired.push([id, done]));
    timers.start(1, false, 100);
    timers.start(1, true, 10);
    for (let id = 2; id < 1000; id++) {
      timers.start(id, false, 1_000_000 + id);
      timers.clear(id);
    }
    expect(timers.size).toBe(1);
    vi.advanceTimersByTime(25);
    expect(fired).toEqual([
      [1, false],
      [1, false],
    ]);
    timers.clear(1);
    expect(vi.getTimerCount()).toBe(0);
  });

  it("throws past maxTimers, and counts only timers that will still fire", () => {
    const timers = new HostTimers(() => {}, 2);
    timers.start(1, false, 1);
    timers.start(2, true, 1);
    expect(() => timers.start(3, false, 1)).toThrow(TooManyTimersError);
    vi.advanceTimersByTime(1);
    timers.start(3, false, 1);
    expect(timers.size).toBe(2);
  });
});
