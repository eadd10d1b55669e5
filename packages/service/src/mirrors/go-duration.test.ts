import { describe, expect, it } from "vitest";
import { checkInterval, formatInterval, parseInterval } from "./go-duration.js";

describe("mirror intervals as Go durations", () => {
  it.each([
    ["8h", 8 * 3_600_000],
    ["1h30m", 5_400_000],
    ["10m0s", 600_000],
    ["0", 0],
    ["0s", 0],
    ["+0", 0],
    ["1.5s", 1500],
  ])("reads %s", (text, ms) => {
    expect(parseInterval(text)).toBe(ms);
  });

  it("reads Go's largest duration and refuses anything past it", () => {
    expect(parseInterval("2562047h47m16.854s")).toBe(9_223_372_036_854);
    expect(parseInterval("2562048h")).toBeUndefined();
    expect(() => checkInterval("30000000000h", 600_000)).toThrow('time: invalid duration "30000000000h"');
  });

  it.each(["", "soon", "1d", "10", "-5m", "30000000000h", "1e400h"])("refuses %j", (text) => {
    expect(parseInterval(text)).toBeUndefined();
  });

  it.each([
    [0, "0s"],
    [500, "500ms"],
    [1500, "1.5s"],
    [90_000, "1m30s"],
    [600_000, "10m0s"],
    [8 * 3_600_000, "8h0m0s"],
    [5_400_000, "1h30m0s"],
  ])("writes %d ms as %s, as Duration.String", (ms, text) => {
    expect(formatInterval(ms)).toBe(text);
  });

  it("accepts 0 and intervals from the minimum up, with Forgejo's messages otherwise", () => {
    expect(checkInterval("0", 600_000)).toBe(0);
    expect(checkInterval("10m", 600_000)).toBe(600_000);
    expect(() => checkInterval("9m59s", 600_000)).toThrow(
      "MirrorInterval hit the minimum interval: 9m59s is less than 10m0s",
    );
    expect(() => checkInterval("x", 600_000)).toThrow('time: invalid duration "x"');
  });
});
