/**
 * Gives the C heap's free memory back to the system once the embedded database goes quiet.
 *
 * V8 compiles PGlite's busiest WebAssembly functions with its optimizing compiler on background
 * threads; a single function can take tens of megabytes of compiler memory. glibc keeps what those
 * threads free in its per-thread arenas, so an instance that has served a burst of requests stays
 * about 60 MiB larger than it needs to (docs/performance.md, "What glibc keeps of V8's compiler
 * memory"). `malloc_trim(0)` hands that memory back. It is called through koffi, an FFI library
 * whose prebuilt binaries need nothing compiled at install; where libc has no `malloc_trim` (musl)
 * or koffi cannot load, nothing is trimmed.
 */
export type Trim = () => void;

let loaded: Promise<Trim | undefined> | undefined;

/** glibc's `malloc_trim(0)`, or undefined where it cannot be called. Loaded once per process. */
export function loadMallocTrim(): Promise<Trim | undefined> {
  loaded ??= (async () => {
    if (process.platform !== "linux") return undefined;
    try {
      const koffi = (await import("koffi")).default;
      const trim = koffi.load("libc.so.6").func("int malloc_trim(size_t)") as (pad: number) => number;
      return () => void trim(0);
    } catch {
      return undefined;
    }
  })();
  return loaded;
}

/**
 * Trims once the database has been quiet for `quietMs` after being used, at most once per
 * `minGapMs`: never in the middle of a burst of queries (a trim holds the event loop for a few
 * milliseconds), never again while nothing happens, and a steady trickle of queries pays for one
 * trim per gap at the most.
 */
export class HeapTrimmer {
  #used = false;
  #lastUse = Number.NEGATIVE_INFINITY;
  #lastTrim = Number.NEGATIVE_INFINITY;
  readonly #timer: ReturnType<typeof setInterval>;

  constructor(
    private readonly trim: Trim,
    private readonly quietMs = 250,
    private readonly minGapMs = 5000,
    private readonly now: () => number = () => performance.now(),
  ) {
    this.#timer = setInterval(() => this.tick(), quietMs);
    this.#timer.unref();
  }

  /** Notes a use of the database (a query). */
  touch(): void {
    this.#used = true;
    this.#lastUse = this.now();
  }

  /** Trims now if the database was used, has been quiet since, and was not trimmed lately. */
  tick(): void {
    const now = this.now();
    if (!this.#used || now - this.#lastUse < this.quietMs || now - this.#lastTrim < this.minGapMs) return;
    this.#used = false;
    this.#lastTrim = now;
    this.trim();
  }

  close(): void {
    clearInterval(this.#timer);
  }
}
