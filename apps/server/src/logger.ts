import { pino } from "pino";
import type { KilnEnvironment } from "./env.js";

/** How many characters of lines are gathered for one write (below sonic-boom's 16 KiB `maxWrite` for ASCII lines). */
const BATCH_CHARS = 12 * 1024;
/** How often buffered log lines are written out at the latest. */
const FLUSH_EVERY_MS = 100;

/**
 * Lines gathered into one string and handed to the destination as one write. sonic-boom can
 * buffer by itself (`minLength`), but it measures the UTF-8 length of everything pending on every
 * write, which made a request's log line cost microseconds; here a line costs a concatenation.
 */
class LineBatch {
  #pending = "";

  constructor(private readonly target: { write(text: string): boolean }) {}

  write(line: string): boolean {
    this.#pending += line;
    if (this.#pending.length >= BATCH_CHARS) this.flush();
    return true;
  }

  /** Writes what is pending (synchronously); pino calls it with a callback. */
  flush(done?: (error?: Error) => void): void {
    try {
      if (this.#pending !== "") {
        const text = this.#pending;
        this.#pending = "";
        this.target.write(text);
      }
      done?.();
    } catch (error) {
      // The stream is already closed: nothing more can be written.
      done?.(error as Error);
    }
  }

  flushSync(): void {
    this.flush();
  }
}

/** Every logger's batch, written out when the process exits. */
const batches = new Set<LineBatch>();

function flushAll(): void {
  for (const batch of batches) batch.flush();
}

/**
 * The structured logger: JSON lines, to stdout for the server and to stderr for CLI commands.
 * Lines are gathered and written in batches (12 KiB, or at least every 100 ms) with one synchronous
 * write each, so that the per-request line costs no system call of its own and no thread-pool
 * work; what is pending is written when the process exits, and `stopWeb` flushes before it
 * returns. A `kill -9` may lose the last 100 ms of lines, never data.
 */
export function createLogger(level: KilnEnvironment["logLevel"], stream: "stdout" | "stderr" = "stdout") {
  const destination = pino.destination({ fd: stream === "stdout" ? 1 : 2, sync: true });
  const batch = new LineBatch(destination);
  setInterval(() => batch.flush(), FLUSH_EVERY_MS).unref();
  if (batches.size === 0) process.once("exit", () => flushAll());
  batches.add(batch);
  return pino({ level, base: { pid: process.pid }, timestamp: isoTime }, batch);
}

/**
 * The request log's line for `logger`, formatted by hand: the same JSON line pino writes for
 * `logger.info({method, path, status, ms}, "request")`, into the same buffered destination (so
 * lines keep their order), at half the cost of pino's generic serializer. Nothing is written
 * when the level is above `info`.
 */
export function requestLogOf(
  logger: KilnLogger,
): (method: string, path: string, status: number, ms: number) => void {
  if (!logger.isLevelEnabled("info")) return () => {};
  const stream = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  if (!stream) return (method, path, status, ms) => logger.info({ method, path, status, ms }, "request");
  const pid = `,"pid":${process.pid}`;
  return (method, path, status, ms) => {
    stream.write(
      `{"level":30${isoTime()}${pid},"method":${JSON.stringify(method)},"path":${JSON.stringify(path)},"status":${status},"ms":${ms},"msg":"request"}\n`,
    );
  };
}

let stampedAt = -1;
let stamp = "";

/**
 * pino's `isoTime`, formatted once per millisecond: a busy server writes many lines within one,
 * and formatting the date is a noticeable part of a request's log line.
 */
function isoTime(): string {
  const now = Date.now();
  if (now !== stampedAt) {
    stampedAt = now;
    stamp = `,"time":"${new Date(now).toISOString()}"`;
  }
  return stamp;
}

export type KilnLogger = ReturnType<typeof createLogger>;
