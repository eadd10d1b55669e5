import { afterEach, describe, expect, it, vi } from "vitest";
import { HeapTrimmer, loadMallocTrim } from "./heap-trim.js";

describe("HeapTrimmer", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("trims once after a burst of use goes quiet, never while idle or in the middle of the burst", () => {
    vi.useFakeTimers();
    const trim = vi.fn();
    const trimmer = new HeapTrimmer(trim, 250, 5000, () => Date.now());
    vi.advanceTimersByTime(10_000);
    expect(trim).not.toHaveBeenCalled();
    // A burst: a query every 100 ms for 3 s.
    for (let i = 0; i < 30; i++) {
      trimmer.touch();
      vi.advanceTimersByTime(100);
    }
    expect(trim).not.toHaveBeenCalled();
    vi.advanceTimersByTime(500);
    expect(trim).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(10_000);
    expect(trim).toHaveBeenCalledTimes(1);
    trimmer.close();
  });

  it("trims a steady trickle of queries once per gap at the most", () => {
    vi.useFakeTimers();
    const trim = vi.fn();
    const trimmer = new HeapTrimmer(trim, 250, 5000, () => Date.now());
    // A query every 400 ms for 20 s: quiet enough between them, but trimmed once per 5 s.
    for (let i = 0; i < 50; i++) {
      trimmer.touch();
      vi.advanceTimersByTime(400);
    }
    expect(trim.mock.calls.length).toBeGreaterThanOrEqual(3);
    expect(trim.mock.calls.length).toBeLessThanOrEqual(5);
    trimmer.close();
  });
});

describe("loadMallocTrim", () => {
  const glibc =
    process.platform === "linux" &&
    (process.report.getReport() as { header?: { glibcVersionRuntime?: string } }).header
      ?.glibcVersionRuntime !== undefined;
  it.runIf(glibc)("finds glibc's malloc_trim on a glibc system, and it can be called", async () => {
    const trim = await loadMallocTrim();
    expect(trim).toBeTypeOf("function");
    expect(() => trim?.()).not.toThrow();
  });
});
