/**
 * A small least-recently-used cache bounded by entry count and by total weight (for highlighted
 * files: characters of HTML), so a few huge files cannot hold the process's memory.
 */
export class Lru<V> {
  readonly #entries = new Map<string, { value: V; weight: number }>();
  #weight = 0;

  constructor(
    private readonly maxEntries: number,
    private readonly maxWeight: number,
  ) {}

  get(key: string): V | undefined {
    const hit = this.#entries.get(key);
    if (!hit) return undefined;
    this.#entries.delete(key);
    this.#entries.set(key, hit);
    return hit.value;
  }

  /** Keeps `value` unless it alone weighs more than the whole cache may. */
  set(key: string, value: V, weight: number): void {
    const old = this.#entries.get(key);
    if (old) {
      this.#entries.delete(key);
      this.#weight -= old.weight;
    }
    if (weight > this.maxWeight) return;
    this.#entries.set(key, { value, weight });
    this.#weight += weight;
    for (const [k, e] of this.#entries) {
      if (this.#entries.size <= this.maxEntries && this.#weight <= this.maxWeight) break;
      this.#entries.delete(k);
      this.#weight -= e.weight;
    }
  }

  get size(): number {
    return this.#entries.size;
  }
}
