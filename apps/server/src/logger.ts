import { writeSync } from "node:fs";
import { pino } from "pino";
import type { KilnEnvironment } from "./env.js";
import { isoTimeAt, requestLine, requestLineBound, writeRequestLine } from "./request-line.js";

/** How many bytes of lines are gathered for one write. */
const BATCH_BYTES = 12 * 1024;
/** The batch's buffer: a batch plus the longest line that is copied into it rather than written alone. */
const CAPACITY = 64 * 1024;
/** How many request lines are noted before they are formatted, together. */
const NOTED = 64;
/** How often buffered log lines are written out at the latest. */
const FLUSH_EVERY_MS = 100;
/** Waited on while a non-blocking destination (a full pipe) refuses bytes. */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/**
 * Lines gathered as UTF-8 bytes in one buffer and written to the file descriptor with one
 * synchronous `write(2)` per batch (12 KiB).
 *
 * A request's line is only noted when the request ends (its fields, into arrays) and written
 * into the buffer with the other lines noted, 64 at a time, before anything else is written: so
 * lines keep their order, and formatting runs as one loop whose code and data stay in the CPU's
 * caches instead of a few instructions between every two requests, which made the line the
 * largest part of a request's cost beyond bare Hono's. The line's bytes are written directly
 * ({@link writeRequestLine}), without a string per line. Gathering lines as strings (a chain of
 * a hundred strings spread over the young generation, walked and encoded twice by sonic-boom at
 * every write) cost more than formatting them.
 */
class LineBatch {
  readonly #bytes = Buffer.allocUnsafe(CAPACITY);
  #used = 0;
  readonly #methods: string[] = new Array<string>(NOTED).fill("");
  readonly #paths: string[] = new Array<string>(NOTED).fill("");
  readonly #statuses = new Float64Array(NOTED);
  readonly #ms = new Float64Array(NOTED);
  readonly #times = new Float64Array(NOTED);
  #noted = 0;

  constructor(private readonly fd: number) {}

  /** Writes a line (pino's), after the request lines noted before it. */
  write(line: string): boolean {
    if (this.#noted > 0) this.#formatNoted();
    this.#append(line);
    return true;
  }

  /** Notes a request's line, formatted later (the time is now). */
  note(method: string, path: string, status: number, ms: number): void {
    const index = this.#noted;
    this.#methods[index] = method;
    this.#paths[index] = path;
    this.#statuses[index] = status;
    this.#ms[index] = ms;
    this.#times[index] = Date.now();
    this.#noted = index + 1;
    if (this.#noted === NOTED) this.#formatNoted();
  }

  /** Writes what is pending (synchronously); pino calls it with a callback. */
  flush(done?: (error?: Error) => void): void {
    try {
      if (this.#noted > 0) this.#formatNoted();
      this.#writeOut();
      done?.();
    } catch (error) {
      // The destination is closed or broken: these lines cannot be written.
      done?.(error as Error);
    }
  }

  flushSync(): void {
    this.flush();
  }

  #formatNoted(): void {
    const count = this.#noted;
    this.#noted = 0;
    for (let index = 0; index < count; index++) {
      const method = this.#methods[index] as string;
      const path = this.#paths[index] as string;
      const bound = requestLineBound(method, path);
      if (bound > CAPACITY - this.#used) {
        this.#writeOut();
        if (bound > CAPACITY) {
          const line = requestLine(
            method,
            path,
            this.#statuses[index] as number,
            this.#ms[index] as number,
            this.#times[index] as number,
          );
          this.#append(line);
          continue;
        }
      }
      this.#used = writeRequestLine(
        this.#bytes,
        this.#used,
        method,
        path,
        this.#statuses[index] as number,
        this.#ms[index] as number,
        this.#times[index] as number,
      );
      if (this.#used >= BATCH_BYTES) this.#writeOut();
    }
  }

  #append(line: string): void {
    // A UTF-16 code unit takes at most three bytes of UTF-8.
    if (line.length * 3 > CAPACITY - this.#used) {
      this.#writeOut();
      if (line.length * 3 > CAPACITY) {
        this.#out(Buffer.from(line));
        return;
      }
    }
    this.#used += this.#bytes.write(line, this.#used);
    if (this.#used >= BATCH_BYTES) this.#writeOut();
  }

  #writeOut(): void {
    const used = this.#used;
    this.#used = 0;
    if (used > 0) this.#out(this.#bytes.subarray(0, used));
  }

  /** Writes every byte, waiting while a non-blocking destination is full (as sonic-boom does). */
  #out(bytes: Uint8Array): void {
    let offset = 0;
    while (offset < bytes.length) {
      try {
        offset += writeSync(this.fd, bytes, offset, bytes.length - offset);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== "EAGAIN") throw error;
        Atomics.wait(PAUSE, 0, 0, 10);
      }
    }
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
  const batch = new LineBatch(stream === "stdout" ? 1 : 2);
  setInterval(() => batch.flush(), FLUSH_EVERY_MS).unref();
  if (batches.size === 0) process.once("exit", () => flushAll());
  batches.add(batch);
  return pino({ level, base: { pid: process.pid }, timestamp: isoTime }, batch);
}

/**
 * The request log's line for `logger`: the same JSON line pino writes for
 * `logger.info({method, path, status, ms}, "request")`, into the same destination (so lines keep
 * their order), formatted by hand at a fraction of the cost of pino's generic serializer, and
 * in bulk (see {@link LineBatch}). Nothing is written when the level is above `info`.
 */
export function requestLogOf(
  logger: KilnLogger,
): (method: string, path: string, status: number, ms: number) => void {
  if (!logger.isLevelEnabled("info")) return () => {};
  const stream = (logger as unknown as Record<symbol, { write(line: string): void }>)[pino.symbols.streamSym];
  if (stream instanceof LineBatch) return (method, path, status, ms) => stream.note(method, path, status, ms);
  if (!stream) return (method, path, status, ms) => logger.info({ method, path, status, ms }, "request");
  return (method, path, status, ms) => stream.write(requestLine(method, path, status, ms, Date.now()));
}

/** pino's `isoTime` (the timestamp function of the loggers), for now. */
function isoTime(): string {
  return isoTimeAt(Date.now());
}

export type KilnLogger = ReturnType<typeof createLogger>;
