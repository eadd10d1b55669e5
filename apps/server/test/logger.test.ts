import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { requestLogOf } from "../src/logger.js";

const LOGGER = fileURLToPath(new URL("../dist/logger.js", import.meta.url));

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

  it("is the line pino writes when noted by the server's logger and formatted later", () => {
    // The server's logger notes request lines and formats them in bulk: the same fields, in the
    // same order, as pino's own line for them, whatever the path holds (a path too long for the
    // batch's buffer is formatted on its own).
    for (const path of ["/api/v1/version", '/api/v1/repos/a"b/\\c/\u00e9\u0001', `/${"x".repeat(30_000)}`]) {
      const script = `
        import { createLogger, requestLogOf } from ${JSON.stringify(LOGGER)};
        const logger = createLogger("info");
        const path = ${JSON.stringify(path)};
        logger.info({ method: "GET", path, status: 404, ms: 1.5 }, "request");
        requestLogOf(logger)("GET", path, 404, 1.5);
        process.exit(0);
      `;
      const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
        encoding: "utf8",
      });
      expect(output.endsWith("\n")).toBe(true);
      const [byPino, byHand] = output
        .trimEnd()
        .split("\n")
        .map((line) => {
          const { time, ...rest } = JSON.parse(line) as { time: string };
          expect(new Date(time).toISOString()).toBe(time);
          return rest;
        });
      expect(byHand).toEqual(byPino);
      expect((byHand as { path: string }).path).toBe(path);
      expect(Object.keys(byHand as object)).toEqual(Object.keys(byPino as object));
    }
  });

  it("keeps pino's lines and request lines in order across batches, and writes the rest at exit", () => {
    // A child process: 5,000 request lines with a pino line every 1,000, then exit at once (no
    // flush by hand, no timer tick): every line must arrive, in the order it was logged.
    const script = `
      import { createLogger, requestLogOf } from ${JSON.stringify(LOGGER)};
      const logger = createLogger("info");
      const log = requestLogOf(logger);
      for (let i = 0; i < 5000; i++) {
        if (i % 1000 === 0) logger.info({ i }, "milestone");
        log("GET", "/n/" + i, 200, 0.1);
      }
      process.exit(0);
    `;
    const output = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
    });
    const lines = output
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as { msg: string; path?: string; i?: number });
    expect(lines).toHaveLength(5005);
    const expected: string[] = [];
    for (let i = 0; i < 5000; i++) {
      if (i % 1000 === 0) expected.push(`milestone ${i}`);
      expected.push(`/n/${i}`);
    }
    expect(lines.map((line) => (line.msg === "milestone" ? `milestone ${line.i}` : line.path))).toEqual(
      expected,
    );
  });
});
