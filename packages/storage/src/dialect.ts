import { createHash } from "node:crypto";
import { resolve } from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { type DatabaseSettings, DEFAULT_PGLITE_SHARED_BUFFERS } from "@kiln/domain";
import { type Dialect, PostgresDialect, type PostgresPool, type PostgresPoolClient } from "kysely";
import pg from "pg";
import { isConnectionLoss, unavailableOr } from "./connection-errors.js";
import { unstorableTextOr } from "./errors.js";
import { HeapTrimmer, loadMallocTrim } from "./heap-trim.js";
import { initPGliteDataDir } from "./pglite-initdb.js";

const INT8_OID = 20;
const NUMERIC_OID = 1700;

/** Options of {@link createDialect}. */
export interface DialectOptions {
  /**
   * Told when a PostgreSQL connection breaks (the server ended it, the socket closed), whether it
   * was idle in the pool or in use; the pool has dropped it and opens a fresh one when needed.
   */
  readonly onConnectionError?: (err: Error) => void;
}

/**
 * Chooses PGlite or PostgreSQL from the settings. Nothing else in Kiln knows which one it is:
 * both go through Kysely's PostgreSQL dialect and return the same JavaScript types (int8 and
 * numeric columns as numbers, which is exact for byte counts below 2^53).
 */
export async function createDialect(
  settings: DatabaseSettings,
  options: DialectOptions = {},
): Promise<Dialect> {
  if (settings.type === "postgres") {
    const pool = new pg.Pool({
      connectionString: settings.url,
      max: 10,
      // A server that stops answering (rather than refusing) must not hold requests forever: a
      // connection that cannot be opened in 10 s fails the request with a 503 like any other loss.
      connectionTimeoutMillis: 10_000,
      ...(settings.schema ? { options: `-c search_path=${settings.schema}` } : {}),
      types: {
        getTypeParser: ((oid: number, format?: "text" | "binary") =>
          oid === INT8_OID || oid === NUMERIC_OID
            ? Number
            : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
      },
    });
    watchConnections(pool, options.onConnectionError);
    return new PostgresDialect({ pool: new PreparingPool(pool) });
  }
  return new PostgresDialect({
    pool: await openPGlitePool(settings.path, undefined, { sharedBuffers: settings.sharedBuffers }),
  });
}

/**
 * A broken connection makes its `pg` client emit `error`, and an `error` event without a listener
 * kills the process. pg-pool listens on idle clients and re-emits on the pool; checked-out
 * clients have no listener of their own. Every client gets one for its whole life, so a loss is
 * reported once, wherever the client is; the pool's re-emission is then only swallowed. The
 * client's statements fail (see {@link PreparingPool}) and the pool drops it.
 */
function watchConnections(pool: pg.Pool, report: ((err: Error) => void) | undefined): void {
  pool.on("connect", (client) => {
    client.on("error", (err) => report?.(err));
  });
  pool.on("error", () => {});
}

/** At most this many distinct statements are prepared; others (e.g. `in` lists of new lengths) run unnamed. */
const MAX_PREPARED = 1000;

/**
 * A pg pool whose clients run every single data statement (`select`, `insert`, `update`,
 * `delete`, `with`) as a named prepared statement: PostgreSQL parses and plans it once per
 * connection and afterwards only binds and executes. Kysely builds the same text for the same
 * query shape, values travel as parameters, so the set of statements is bounded by the code;
 * past {@link MAX_PREPARED} distinct texts, new ones run unnamed. Anything else (DDL, several
 * statements in one text, cursors) runs as given.
 *
 * A lost or refused connection fails the statement (or the checkout) with a
 * DatabaseUnavailableError, and the client is then released as broken, so that the pool
 * destroys it and the next checkout opens a fresh connection.
 */
class PreparingPool implements PostgresPool {
  readonly #names = new Map<string, string>();

  constructor(readonly pool: pg.Pool) {}

  async connect(): Promise<PostgresPoolClient> {
    let client: pg.PoolClient;
    try {
      client = await this.pool.connect();
    } catch (err) {
      throw unavailableOr(err);
    }
    const query = client.query.bind(client) as (...args: unknown[]) => unknown;
    let broken: Error | undefined;
    const failed = (err: unknown) => {
      if (isConnectionLoss(err)) broken ??= err as Error;
      throw unstorableTextOr(unavailableOr(err));
    };
    const prepared = {
      query: (first: unknown, ...rest: unknown[]) => {
        const name = typeof first === "string" ? this.#nameOf(first) : undefined;
        const result = name ? query({ name, text: first, values: rest[0] }) : query(first, ...rest);
        // A cursor is returned as is; a statement's promise has its connection errors typed.
        return result instanceof Promise ? result.catch(failed) : result;
      },
      release: (err?: Error | boolean) => client.release(err ?? broken),
    };
    return prepared as unknown as PostgresPoolClient;
  }

  #nameOf(text: string): string | undefined {
    const known = this.#names.get(text);
    if (known) return known;
    if (this.#names.size >= MAX_PREPARED) return undefined;
    if (!/^\s*(select|insert|update|delete|with)\b/i.test(text) || text.includes(";")) return undefined;
    const name = `kiln_${createHash("sha1").update(text).digest("hex").slice(0, 20)}`;
    this.#names.set(text, name);
    return name;
  }

  end(): Promise<void> {
    return this.pool.end();
  }
}

/** How PGlite is sized; see {@link openPGlitePool}. */
export interface PGliteSizing {
  /** `shared_buffers` in bytes (default {@link DEFAULT_PGLITE_SHARED_BUFFERS}). */
  readonly sharedBuffers?: number | undefined;
}

/**
 * Opens PGlite (a file-backed data directory, or in memory for "memory://" and blobs) and wraps
 * it as a pg-style pool. PGlite is a single connection, so the pool hands out one client at a
 * time: a transaction holds it until it ends and other queries wait their turn.
 *
 * PGlite's WebAssembly memory grows and never shrinks, so every buffer PostgreSQL fills stays
 * resident. Its own defaults are a server's (128 MiB of shared buffers); Kiln starts it with a
 * small buffer pool and a small `maintenance_work_mem` (index builds in migrations).
 */
export async function openPGlitePool(
  path: string,
  loadDataDir?: Blob,
  sizing: PGliteSizing = {},
): Promise<PostgresPool> {
  const parsers = { [INT8_OID]: Number, [NUMERIC_OID]: Number };
  const sharedBuffers = sizing.sharedBuffers ?? DEFAULT_PGLITE_SHARED_BUFFERS;
  if (path !== "memory://" && !loadDataDir) await initPGliteDataDir(resolve(path));
  // Loaded here, not at the top: an instance on PostgreSQL never pays for PGlite's code.
  const { PGlite } = await import("@electric-sql/pglite");
  const db = await PGlite.create({
    ...(path === "memory://" ? {} : { dataDir: path }),
    ...(loadDataDir ? { loadDataDir } : {}),
    parsers,
    startParams: [
      ...PGlite.defaultStartParams,
      "-c",
      `shared_buffers=${Math.floor(sharedBuffers / 1024)}kB`,
      "-c",
      "maintenance_work_mem=16MB",
    ],
  });
  // What V8's compiler threads freed while PGlite started (and after each burst of queries, once
  // it goes quiet) goes back to the system.
  const trim = await loadMallocTrim();
  trim?.();
  return new PGlitePool(db, trim ? new HeapTrimmer(trim) : undefined);
}

class PGlitePool implements PostgresPool {
  private queue: Promise<void> = Promise.resolve();
  private closed = false;

  constructor(
    readonly pglite: PGlite,
    private readonly trimmer?: HeapTrimmer,
  ) {}

  async connect(): Promise<PostgresPoolClient> {
    if (this.closed) throw new Error("the database is closed");
    let release!: () => void;
    const turn = new Promise<void>((resolve) => {
      release = resolve;
    });
    const previous = this.queue;
    this.queue = previous.then(() => turn);
    // A query that waits this long for the single connection is almost always a query made on
    // the instance handle inside a transaction, which can never get the connection: say so.
    const warn = setTimeout(() => {
      process.emitWarning(
        "a PGlite query has waited 10 s for the connection: is a query using the database handle inside a transaction instead of the transaction?",
        "KilnPGliteDeadlock",
      );
    }, 10_000);
    warn.unref();
    await previous;
    clearTimeout(warn);
    const db = this.pglite;
    const trimmer = this.trimmer;
    let released = false;
    const client = {
      async query(sql: string, parameters: readonly unknown[]) {
        trimmer?.touch();
        const result = await db.query(sql, parameters as unknown[]).catch((err: unknown) => {
          throw unstorableTextOr(err);
        });
        return {
          command: commandOf(sql),
          rowCount: result.affectedRows ?? result.rows.length,
          rows: result.rows,
        };
      },
      release() {
        if (!released) {
          released = true;
          release();
        }
      },
    };
    return client as unknown as PostgresPoolClient;
  }

  async end(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.trimmer?.close();
    await this.queue;
    await this.pglite.close();
  }
}

function commandOf(sql: string): "INSERT" | "UPDATE" | "DELETE" | "MERGE" | "SELECT" {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toUpperCase();
  return word === "INSERT" || word === "UPDATE" || word === "DELETE" || word === "MERGE" ? word : "SELECT";
}
