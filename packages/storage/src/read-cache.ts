import type {
  Dialect,
  Driver,
  KyselyPlugin,
  PluginTransformQueryArgs,
  PluginTransformResultArgs,
  QueryResult,
  RootOperationNode,
  UnknownRow,
} from "kysely";

/**
 * Counts the writes a Kysely instance commits. Every statement that is not a plain SELECT (raw SQL
 * included, to be safe) advances it when it has run, and so does every COMMIT, so a reader can tell
 * whether anything changed since it started. Cheap enough to watch every query.
 */
export class WriteClock {
  private value = 0;

  /** The current generation: unchanged means nothing was written since it was read. */
  get generation(): number {
    return this.value;
  }

  /** Records that something was written. */
  advance(): void {
    this.value++;
  }
}

/** A Kysely plugin that advances the clock after every statement that may write. */
export class WritesPlugin implements KyselyPlugin {
  private readonly writes = new WeakSet<object>();

  constructor(private readonly clock: WriteClock) {}

  transformQuery(args: PluginTransformQueryArgs): RootOperationNode {
    if (args.node.kind !== "SelectQueryNode") this.writes.add(args.queryId);
    return args.node;
  }

  async transformResult(args: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    if (this.writes.has(args.queryId)) this.clock.advance();
    return args.result;
  }
}

/** The dialect with its driver's COMMIT advancing the clock (writes inside a transaction count when they land). */
export function watchCommits(dialect: Dialect, clock: WriteClock): Dialect {
  return {
    createAdapter: () => dialect.createAdapter(),
    createIntrospector: (db) => dialect.createIntrospector(db),
    createQueryCompiler: () => dialect.createQueryCompiler(),
    createDriver: (): Driver => {
      const driver = dialect.createDriver();
      return new Proxy(driver, {
        get(target, property, receiver) {
          if (property === "commitTransaction") {
            return async (...args: Parameters<Driver["commitTransaction"]>) => {
              try {
                return await target.commitTransaction(...args);
              } finally {
                clock.advance();
              }
            };
          }
          const value: unknown = Reflect.get(target, property, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      });
    },
  };
}

/** How the read cache behaves: entries live `ttl` ms (0 disables it), at most `maxEntries`. */
export interface ReadCacheOptions {
  readonly ttl: number;
  readonly maxEntries?: number;
  /** The clock, in ms; tests inject one. */
  readonly now?: () => number;
}

interface Entry {
  readonly value: unknown;
  readonly generation: number;
  readonly expires: number;
}

/**
 * Results of hot reads (a repository with the caller's access facts, a page of a visibility-filtered
 * list), kept in process until anything is written through this process or the TTL passes. A
 * result read while a write landed is not stored. The TTL bounds how long a change made by
 * another process sharing the database may go unseen. Reads inside a transaction never use it.
 */
export class ReadCache {
  private readonly entries = new Map<string, Entry>();
  private readonly ttl: number;
  private readonly maxEntries: number;
  private readonly now: () => number;

  constructor(
    private readonly clock: WriteClock,
    options: ReadCacheOptions,
  ) {
    this.ttl = Math.max(0, options.ttl);
    this.maxEntries = Math.max(1, options.maxEntries ?? 2_000);
    this.now = options.now ?? Date.now;
  }

  /** The number of entries held. */
  get size(): number {
    return this.entries.size;
  }

  /** The cached result for `key`, or `load()`'s, stored when nothing was written meanwhile. */
  async read<T>(key: string, load: () => Promise<T>): Promise<T> {
    if (this.ttl === 0) return load();
    const generation = this.clock.generation;
    const entry = this.entries.get(key);
    if (entry) {
      this.entries.delete(key);
      if (entry.generation === generation && entry.expires > this.now()) {
        this.entries.set(key, entry); // most recently used last
        return entry.value as T;
      }
    }
    const value = await load();
    if (this.clock.generation === generation) {
      this.entries.set(key, { value, generation, expires: this.now() + this.ttl });
      while (this.entries.size > this.maxEntries) {
        const oldest = this.entries.keys().next().value;
        if (oldest === undefined) break;
        this.entries.delete(oldest);
      }
    }
    return value;
  }
}

const caches = new WeakMap<object, ReadCache>();
const clocks = new WeakMap<object, WriteClock>();

/** Registers the write clock of a database handle (done where the handle is made). */
export function registerWriteClock(db: object, clock: WriteClock): void {
  clocks.set(db, clock);
}

/** Turns the read cache on for a database handle (the server does, with `[security] CREDENTIAL_CACHE_TTL`). */
export function enableReadCache(db: object, options: ReadCacheOptions): void {
  const clock = clocks.get(db);
  if (clock) caches.set(db, new ReadCache(clock, options));
}

/**
 * `load()` through the handle's read cache when it has one. Transaction handles are other objects
 * and have none, so reads inside a transaction always see the database.
 */
export function cachedRead<T>(db: object, key: string, load: () => Promise<T>): Promise<T> {
  const cache = caches.get(db);
  return cache ? cache.read(key, load) : load();
}
