/**
 * The delivery worker's slots and who holds them, by receiver (`host[:port]`). A receiver's share
 * is the slots divided among the receivers holding some plus one more (at least one slot): with
 * 16 slots, a receiver alone may hold 8, two may hold 5 each, three 4 each. The last free slot is
 * kept for a receiver that holds none, so slow receivers already holding slots never take all of
 * them: a receiver with nothing in flight finds a slot as soon as one is free.
 */
export class SlotPool {
  readonly #held = new Map<string, number>();
  #used = 0;

  constructor(readonly size: number) {}

  /** Slots nobody holds. */
  get free(): number {
    return this.size - this.#used;
  }

  /** How many slots `host` may hold while the others hold what they hold now. */
  shareOf(host: string): number {
    const others = this.#held.size - (this.#held.has(host) ? 1 : 0);
    return Math.max(1, Math.floor(this.size / (others + 2)));
  }

  /** Receivers holding their share already (their due deliveries wait). */
  fullHosts(): string[] {
    const last = this.free <= 1;
    return [...this.#held].filter(([host, n]) => last || n >= this.shareOf(host)).map(([host]) => host);
  }

  /** Takes a slot for `host` if one is free and `host` is below its share. */
  take(host: string): boolean {
    const held = this.#held.get(host) ?? 0;
    if (this.free <= 0 || held >= this.shareOf(host) || (held > 0 && this.free <= 1)) return false;
    this.#held.set(host, held + 1);
    this.#used += 1;
    return true;
  }

  /** Gives back a slot `host` held. */
  give(host: string): void {
    const held = this.#held.get(host) ?? 0;
    if (held <= 0) return;
    if (held === 1) this.#held.delete(host);
    else this.#held.set(host, held - 1);
    this.#used -= 1;
  }
}
