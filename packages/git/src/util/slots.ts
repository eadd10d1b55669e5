import { GitBusyError } from "../errors/git-error.js";

/**
 * A counting semaphore with a fair queue: at most `limit` holders at once, at most `perKey` of
 * them with the same key (a repository), and waiters served round-robin across keys, so a
 * repository that queues a thousand operations cannot hold back another repository's one. A
 * waiter that gets no slot within `timeout` ms, or arrives when `maxWaiting` already wait, is
 * refused with {@link GitBusyError} (the API answers 503): work queues, it is not lost silently.
 */
export interface SlotLimits {
  readonly limit: number;
  /** Holders per key; `limit` when absent. */
  readonly perKey?: number;
  /** How long a waiter waits, in ms. */
  readonly timeout: number;
  /** Waiters at most; more are refused at once. */
  readonly maxWaiting: number;
}

interface Waiter {
  readonly key: string;
  readonly grant: (release: () => void) => void;
  readonly refuse: (error: Error) => void;
  timer?: NodeJS.Timeout;
  done: boolean;
}

/** A pool of slots; see {@link SlotLimits}. */
export class Slots {
  #limits: SlotLimits;
  #active = 0;
  readonly #held = new Map<string, number>();
  /** Waiters per key, keys in the order they started waiting (the round-robin). */
  readonly #waiting = new Map<string, Waiter[]>();
  #waiters = 0;

  constructor(
    readonly name: string,
    limits: SlotLimits,
  ) {
    this.#limits = limits;
  }

  /** Changes the limits (configuration at start-up; tests). */
  configure(limits: Partial<SlotLimits>): void {
    this.#limits = { ...this.#limits, ...limits };
    this.#dispatch();
  }

  /** Slots held now. */
  get active(): number {
    return this.#active;
  }

  /** Operations waiting now. */
  get waiting(): number {
    return this.#waiters;
  }

  #perKey(): number {
    return Math.max(1, Math.min(this.#limits.perKey ?? this.#limits.limit, this.#limits.limit));
  }

  #free(key: string): boolean {
    return this.#active < this.#limits.limit && (this.#held.get(key) ?? 0) < this.#perKey();
  }

  #take(key: string): () => void {
    this.#active++;
    this.#held.set(key, (this.#held.get(key) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.#active--;
      const left = (this.#held.get(key) ?? 1) - 1;
      if (left === 0) this.#held.delete(key);
      else this.#held.set(key, left);
      this.#dispatch();
    };
  }

  /** Resolves with a release function once a slot for `key` is free. */
  acquire(key: string): Promise<() => void> {
    if (this.#waiters === 0 && this.#free(key)) return Promise.resolve(this.#take(key));
    if (this.#waiters >= this.#limits.maxWaiting) {
      return Promise.reject(new GitBusyError(`too many ${this.name} waiting; try again later`));
    }
    return new Promise((grant, refuse) => {
      const waiter: Waiter = { key, grant, refuse, done: false };
      waiter.timer = setTimeout(() => {
        if (waiter.done) return;
        waiter.done = true;
        this.#remove(waiter);
        refuse(
          new GitBusyError(`no ${this.name} slot free within ${this.#limits.timeout} ms; try again later`),
        );
      }, this.#limits.timeout);
      waiter.timer.unref?.();
      const queue = this.#waiting.get(key);
      if (queue) queue.push(waiter);
      else this.#waiting.set(key, [waiter]);
      this.#waiters++;
      this.#dispatch();
    });
  }

  /** Runs `work` holding a slot for `key`. */
  async run<T>(key: string, work: () => Promise<T>): Promise<T> {
    const release = await this.acquire(key);
    try {
      return await work();
    } finally {
      release();
    }
  }

  #remove(waiter: Waiter): void {
    const queue = this.#waiting.get(waiter.key);
    if (!queue) return;
    const index = queue.indexOf(waiter);
    if (index >= 0) {
      queue.splice(index, 1);
      this.#waiters--;
    }
    if (queue.length === 0) this.#waiting.delete(waiter.key);
  }

  /** Grants free slots to waiters, one key at a time in turn. */
  #dispatch(): void {
    while (this.#active < this.#limits.limit && this.#waiters > 0) {
      let granted = false;
      for (const [key, queue] of this.#waiting) {
        if (!this.#free(key)) continue;
        const waiter = queue.shift() as Waiter;
        this.#waiters--;
        // The key goes to the back of the round-robin (or away when it has no more waiters).
        this.#waiting.delete(key);
        if (queue.length > 0) this.#waiting.set(key, queue);
        waiter.done = true;
        if (waiter.timer) clearTimeout(waiter.timer);
        waiter.grant(this.#take(key));
        granted = true;
        break;
      }
      if (!granted) return;
    }
  }
}
