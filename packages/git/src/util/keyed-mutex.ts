/**
 * An in-process mutex per key: `run(key, fn)` waits for every earlier `run` on the same key to
 * settle, then runs `fn`. Different keys never wait for each other.
 */
export class KeyedMutex {
  readonly #tails = new Map<string, Promise<void>>();

  /** Runs `fn` once every earlier task on `key` has settled; resolves or rejects as `fn` does. */
  async run<T>(key: string, fn: () => Promise<T>): Promise<T> {
    const previous = this.#tails.get(key) ?? Promise.resolve();
    let release!: () => void;
    const tail = new Promise<void>((resolve) => {
      release = resolve;
    });
    const chained = previous.then(() => tail);
    this.#tails.set(key, chained);
    try {
      await previous;
      return await fn();
    } finally {
      release();
      if (this.#tails.get(key) === chained) this.#tails.delete(key);
    }
  }

  /** Runs `fn` holding several keys at once, taken in sorted order so two callers never deadlock. */
  async runAll<T>(keys: readonly string[], fn: () => Promise<T>): Promise<T> {
    const sorted = [...new Set(keys)].sort();
    const step = (index: number): Promise<T> => {
      const key = sorted[index];
      if (key === undefined) return fn();
      return this.run(key, () => step(index + 1));
    };
    return step(0);
  }

  /** Whether some task currently holds or waits for `key`. */
  isLocked(key: string): boolean {
    return this.#tails.has(key);
  }
}
