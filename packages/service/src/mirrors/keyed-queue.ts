/**
 * Runs keyed jobs at most `concurrency` at a time; a job whose key is already queued or running is
 * not started twice: the caller joins it. Used so that pushes to mirrors cannot start an unbounded
 * number of git processes.
 */
export class KeyedQueue<K, T> {
  private readonly jobs = new Map<K, Promise<T>>();
  private readonly waiting: Array<() => void> = [];
  private active = 0;

  constructor(private readonly concurrency: number) {}

  /** Runs `job` under `key` once a slot is free, or joins the job of `key` queued or running. */
  run(key: K, job: () => Promise<T>): Promise<T> {
    const going = this.jobs.get(key);
    if (going) return going;
    const run = this.acquire()
      .then(() => job().finally(() => this.release()))
      .finally(() => this.jobs.delete(key));
    this.jobs.set(key, run);
    return run;
  }

  /** Jobs queued or running. */
  get size(): number {
    return this.jobs.size;
  }

  /** Settles once every job queued or running now, or added meanwhile, has settled. */
  async idle(): Promise<void> {
    while (this.jobs.size > 0) await Promise.allSettled([...this.jobs.values()]);
  }

  private acquire(): Promise<void> {
    if (this.active < this.concurrency) {
      this.active++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.waiting.push(resolve));
  }

  /** Hands the slot to the next waiting job, or frees it. */
  private release(): void {
    const next = this.waiting.shift();
    if (next) next();
    else this.active--;
  }
}
