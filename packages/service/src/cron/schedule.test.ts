import { describe, expect, it } from "vitest";
import { parseGoDuration, parseSchedule } from "./schedule.js";

const at = (text: string) => new Date(text);
const local = (y: number, mo: number, d: number, h = 0, mi = 0, s = 0) => new Date(y, mo - 1, d, h, mi, s);

describe("parseSchedule", () => {
  it("reads @every with Go durations", () => {
    expect(parseGoDuration("1h30m")).toBe(5_400_000);
    expect(parseGoDuration("10ms")).toBe(10);
    expect(parseGoDuration("24h")).toBe(86_400_000);
    expect(parseGoDuration("1d")).toBeUndefined();
    const from = at("2026-01-01T00:00:00Z");
    expect(parseSchedule("@every 10m").next(from).getTime() - from.getTime()).toBe(600_000);
  });

  it("reads Forgejo's descriptors in local time", () => {
    const from = local(2026, 3, 14, 15, 9, 26);
    expect(parseSchedule("@midnight").next(from)).toEqual(local(2026, 3, 15));
    expect(parseSchedule("@hourly").next(from)).toEqual(local(2026, 3, 14, 16));
    expect(parseSchedule("@monthly").next(from)).toEqual(local(2026, 4, 1));
    expect(parseSchedule("@annually").next(from)).toEqual(local(2027, 1, 1));
    // 2026-03-14 is a Saturday: the next Sunday midnight is the 15th.
    expect(parseSchedule("@weekly").next(from)).toEqual(local(2026, 3, 15));
  });

  it("reads cron expressions of five and six fields with lists, ranges, steps and names", () => {
    const from = local(2026, 3, 14, 15, 9, 26);
    expect(parseSchedule("*/15 * * * *").next(from)).toEqual(local(2026, 3, 14, 15, 15));
    expect(parseSchedule("30 2 * * MON-FRI").next(from)).toEqual(local(2026, 3, 16, 2, 30));
    expect(parseSchedule("0 0 1,15 FEB *").next(from)).toEqual(local(2027, 2, 1));
    expect(parseSchedule("*/10 * * * * *").next(from)).toEqual(local(2026, 3, 14, 15, 9, 30));
    // Both day fields restricted: either matches, as in cron (the 20th, or a Monday before it).
    expect(parseSchedule("0 0 20 * 1").next(from)).toEqual(local(2026, 3, 16));
  });

  it("refuses what is not a schedule", () => {
    for (const bad of [
      "",
      "@every",
      "@every 0s",
      "@every 5",
      "* * *",
      "61 * * * *",
      "* * 0 * *",
      "*/0 * * * *",
      "@sometimes",
    ])
      expect(() => parseSchedule(bad), bad).toThrow(/invalid schedule/);
  });
});
