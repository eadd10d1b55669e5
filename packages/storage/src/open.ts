import type { DatabaseSettings } from "@kiln/domain";
import { CamelCasePlugin, type Dialect, Kysely, type MigrationResultSet, Migrator, sql } from "kysely";
import type { Database } from "./database.js";
import { createDialect, type DialectOptions } from "./dialect.js";
import { migrations } from "./migrations/index.js";
import { registerWriteClock, WriteClock, WritesPlugin, watchCommits } from "./read-cache.js";

/** Opens the database the settings name, without migrating it. Close it with `db.destroy()`. */
export async function openDatabase(
  settings: DatabaseSettings,
  options: DialectOptions = {},
): Promise<Kysely<Database>> {
  return fromDialect(await createDialect(settings, options));
}

/** Runs a trivial statement: rejects (with DatabaseUnavailableError) when the database cannot be reached. */
export async function pingDatabase(db: Kysely<Database>): Promise<void> {
  await sql`select 1`.execute(db);
}

/** Wraps a dialect in Kiln's Kysely instance: camelCase in TypeScript, snake_case in SQL. */
export function fromDialect(dialect: Dialect): Kysely<Database> {
  const clock = new WriteClock();
  const db = new Kysely<Database>({
    dialect: watchCommits(dialect, clock),
    plugins: [new CamelCasePlugin(), new WritesPlugin(clock)],
  });
  registerWriteClock(db, clock);
  return db;
}

/** Thrown when a migration fails; the database is left at the last migration that succeeded. */
export class MigrationError extends Error {
  constructor(
    message: string,
    readonly results: MigrationResultSet["results"],
  ) {
    super(message);
    this.name = "MigrationError";
  }
}

/**
 * The PostgreSQL advisory lock held while a schema is migrated (and, by the test harness, while one
 * is dropped). Kysely's migrator introspects every table of every schema to find its own tables,
 * and that catalog walk fails when another session drops a schema at the same moment; several Kiln
 * processes starting together also migrate one at a time under it.
 */
export const SCHEMA_CHANGE_LOCK = 716_011_001;

/**
 * Runs every pending migration in order and returns the names of those it applied.
 * Safe to call at every start: it holds SCHEMA_CHANGE_LOCK, and Kysely's migrator skips what has run.
 */
export async function migrateToLatest(db: Kysely<Database>, schema?: string): Promise<string[]> {
  return db.connection().execute(async (conn) => {
    await sql`select pg_advisory_lock(${SCHEMA_CHANGE_LOCK})`.execute(conn);
    try {
      return await migrateOn(conn, schema);
    } finally {
      await sql`select pg_advisory_unlock(${SCHEMA_CHANGE_LOCK})`.execute(conn);
    }
  });
}

async function migrateOn(db: Kysely<Database>, schema: string | undefined): Promise<string[]> {
  if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  const migrator = new Migrator({
    // The migrator must see raw table names, not the camelCase plugin's view.
    db: db.withoutPlugins() as Kysely<unknown>,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results = [] } = await migrator.migrateToLatest();
  if (error) {
    const failed = results.find((r) => r.status === "Error")?.migrationName ?? "unknown";
    const reason = error instanceof Error ? error.message : String(error);
    throw new MigrationError(`migration ${failed} failed: ${reason}`, results);
  }
  return results.filter((r) => r.status === "Success").map((r) => r.migrationName);
}
