/**
 * The host's timers behind TIMER_START / TIMER_CLEAR. A one-shot timer fires once with `done`;
 * an interval fires until cleared. Clearing an unknown id is a no-op (DECISIONS.md item 17). At
 * most `maxTimers` are pending at once: starting one more throws {@link TooManyTimersError}.
 */
export class HostTimers {
  readonly #timers = new Map<number, NodeJS.Timeout>();

  constructor(
    private readonly fire: (id: number, done: boolean) => void,
    private readonly maxTimers = Number.POSITIVE_INFINITY,
  ) {}

  /** Timers that will still fire. */
  get size(): number {
    return this.#timers.size;
  }

  /** Starts timer `id` (replacing one with the same id) after `duration` ms, repeating when `interval`. */
  start(id: number, interval: boolean, duration: number): void {
    this.clear(id);
    if (this.#timers.size >= this.maxTimers) throw new TooManyTimersError(this.maxTimers);
    const ms = Number.isFinite(duration) && duration > 0 ? duration : 0;
    if (interval) {
      this.#timers.set(
        id,
        setInterval(() => this.fire(id, false), Math.max(1, ms)),
      );
    } else {
      this.#timers.set(
        id,
        setTimeout(() => {
          this.#timers.delete(id);
          this.fire(id, true);
        }, ms),
      );
    }
  }

  /** Cancels timer `id`; does nothing when there is no such timer. */
  clear(id: number): void {
    const timer = this.#timers.get(id);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#timers.delete(id);
  }

  /** Cancels every timer (on exit). */
  clearAll(): void {
    for (const id of [...this.#timers.keys()]) this.clear(id);
  }
}

/** A script asked for more pending timers than the host keeps. */
export class TooManyTimersError extends Error {
  constructor(readonly limit: number) {
    super(`the script has more than ${limit} pending timers (--max-timers)`);
  }
}
