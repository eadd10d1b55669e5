/** A read-only `Headers` built from FETCH_RES header lines; names are case-insensitive. */
export class KilnHeaders {
  readonly #entries: [string, string][] = [];

  constructor(init: Iterable<[string, string]> | Record<string, string> = []) {
    const pairs = Symbol.iterator in init ? init : Object.entries(init);
    for (const [name, value] of pairs as Iterable<[string, string]>) this.append(name, value);
  }

  /** Builds headers from `Name: value` lines. */
  static fromLines(lines: readonly string[]): KilnHeaders {
    const headers = new KilnHeaders();
    for (const line of lines) {
      const colon = line.indexOf(":");
      if (colon > 0) headers.append(line.slice(0, colon).trim(), line.slice(colon + 1).trim());
    }
    return headers;
  }

  append(name: string, value: string): void {
    this.#entries.push([String(name).toLowerCase(), String(value)]);
  }

  get(name: string): string | null {
    const wanted = String(name).toLowerCase();
    const values = this.#entries.filter(([key]) => key === wanted).map(([, value]) => value);
    return values.length ? values.join(", ") : null;
  }

  has(name: string): boolean {
    return this.get(name) !== null;
  }

  forEach(callback: (value: string, name: string, headers: KilnHeaders) => void): void {
    for (const [name, value] of this.entries()) callback(value, name, this);
  }

  *entries(): IterableIterator<[string, string]> {
    const names = [...new Set(this.#entries.map(([name]) => name))].sort();
    for (const name of names) yield [name, this.get(name)!];
  }

  *keys(): IterableIterator<string> {
    for (const [name] of this.entries()) yield name;
  }

  *values(): IterableIterator<string> {
    for (const [, value] of this.entries()) yield value;
  }

  [Symbol.iterator](): IterableIterator<[string, string]> {
    return this.entries();
  }
}
