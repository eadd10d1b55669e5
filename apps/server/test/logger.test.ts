import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { requestLogOf } from "../src/logger.js";

function capture(level: "info" | "warn") {
  const lines: string[] = [];
  const logger = pino(
    { level, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime },
    { write: (line: string) => lines.push(line) },
  );
  return { logger, lines };
}

describe("the request log line", () => {
  it("is the line pino writes for the same fields, in the same stream", () => {
    const { logger, lines } = capture("info");
    const path = '/api/v1/repos/a"b/\\c/\u00e9\u0001';
    logger.info({ method: "GET", path, status: 404, ms: 1.5 }, "request");
    requestLogOf(logger)("GET", path, 404, 1.5);
    expect(lines).toHaveLength(2);
    const [byPino, byHand] = lines.map((line) => {
      expect(line.endsWith("\n")).toBe(true);
      const { time, ...rest } = JSON.parse(line) as { time: string };
      expect(new Date(time).toISOString()).toBe(time);
      return rest;
    });
    expect(byHand).toEqual(byPino);
    expect(Object.keys(byHand as object)).toEqual(Object.keys(byPino as object));
  });

  it("writes nothing above the info level", () => {
    const { logger, lines } = capture("warn");
    requestLogOf(logger)("GET", "/api/v1/version", 200, 0.1);
    expect(lines).toEqual([]);
  });
});
