import { pino } from "pino";
import { describe, expect, it } from "vitest";
import { requestLine, requestLineBound, writeRequestLine } from "../src/request-line.js";

/** pino's own line for the request log's fields at `time`, with Kiln's logger options. */
function pinoLine(method: string, path: string, status: number, ms: number, time: number): string {
  const lines: string[] = [];
  const logger = pino(
    { base: { pid: process.pid }, timestamp: () => `,"time":"${new Date(time).toISOString()}"` },
    { write: (line: string) => lines.push(line) },
  );
  logger.info({ method, path, status, ms }, "request");
  return lines[0] as string;
}

/** `writeRequestLine`'s bytes as text, written at an offset into a buffer that is not empty. */
function written(method: string, path: string, status: number, ms: number, time: number): string {
  const at = 7;
  const bytes = Buffer.alloc(at + requestLineBound(method, path), 0xff);
  const end = writeRequestLine(bytes, at, method, path, status, ms, time);
  expect(end).toBeLessThanOrEqual(bytes.length);
  return bytes.toString("utf8", at, end);
}

const PATHS = [
  "/api/v1/version",
  "/",
  "",
  "/api/v1/repos/search",
  '/api/v1/repos/a"b/\\c',
  "/caf\u00e9/\u00ff",
  "/ctl/\u0000\u0001\u001f\u007f",
  "/emoji/\u{1f600}",
  // A lone surrogate (none reaches a path from Node's parser, which reads bytes as Latin-1):
  // JSON.stringify escapes it, where pino writes it as it is (U+FFFD once encoded).
  "/lone/\ud800",
  `/long/${"x".repeat(5000)}`,
  `/${"\u0001".repeat(300)}`,
];
const MS = [0, 0.1, 0.5, 1, 9.9, 10, 12.3, 99.9, 100, 1500, 123456.7, 1.55, 0.05, 2 ** 40 + 0.5, 1e21, -1];
const STATUSES = [100, 200, 204, 301, 404, 413, 500, 599, 999];
const METHODS = ["GET", "POST", "PROPFIND", "M\u00e9", 'A"B'];

describe("the request log's line", () => {
  it("has the right time however the clock moves: within a second, across seconds, backwards", () => {
    const start = Date.UTC(2026, 10, 25, 23, 59, 58, 990);
    const times = [0, 1, 9, 10, 99, 100, 999, 1000, 1001, 1010, 5, 2000, -5000, 86_400_000, 86_400_001, 3];
    for (const offset of times) {
      const time = start + offset;
      expect(written("GET", "/api/v1/version", 200, 0.1, time)).toBe(
        requestLine("GET", "/api/v1/version", 200, 0.1, time),
      );
    }
  });

  it("is pino's line for the same fields", () => {
    const time = Date.UTC(2026, 10, 25, 23, 59, 59, 999);
    for (const path of PATHS.filter((p) => !p.startsWith("/lone/"))) {
      for (const ms of [0.1, 1500]) {
        expect(requestLine("GET", path, 404, ms, time)).toBe(pinoLine("GET", path, 404, ms, time));
      }
    }
  });

  it("has the same bytes when written into a buffer, for any method, path, status and duration", () => {
    let time = Date.UTC(2026, 0, 1);
    for (const method of METHODS) {
      for (const path of PATHS) {
        for (const status of STATUSES) {
          for (const ms of MS) {
            time += 7;
            expect(written(method, path, status, ms, time)).toBe(requestLine(method, path, status, ms, time));
          }
        }
      }
    }
  });
});
