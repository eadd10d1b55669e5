import { randomBytes } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { type Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import type { Database } from "../database.js";
import { createDialect, openPGlitePool } from "../dialect.js";
import { migrations } from "../migrations/index.js";
import { fromDialect, migrateToLatest, SCHEMA_CHANGE_LOCK } from "../open.js";
import { testPostgresUrl } from "./postgres-url.js";

export { createFreshDatabase, type FreshDatabase } from "./fresh-database.js";

/** The two databases every storage test runs against. */
export type DialectName = "pglite" | "postgres";
export const DIALECTS: readonly DialectName[] = ["pglite", "postgres"];

/** A migrated database for one test file, and how to get rid of it. */
export interface TestDatabase {
  readonly dialect: DialectName;
  readonly db: Kysely<Database>;
  /** For postgres: the connection string and schema, so a server under test can use the same data. */
  readonly postgres?: { readonly url: string; readonly schema: string };
  close(): Promise<void>;
}

export { testPostgresUrl } from "./postgres-url.js";

/** Opens a fresh, migrated database of the given kind. Share one per test file: PGlite costs ~0.5 s. */
export async function openTestDatabase(dialect: DialectName): Promise<TestDatabase> {
  return dialect === "pglite" ? openTestPGlite() : openTestPostgres();
}

async function openTestPGlite(): Promise<TestDatabase> {
  const template = await pgliteTemplate();
  const db = fromDialect(new PostgresDialect({ pool: await openPGlitePool("memory://", template) }));
  return { dialect: "pglite", db, close: () => db.destroy() };
}

async function openTestPostgres(): Promise<TestDatabase> {
  const url = testPostgresUrl();
  const schema = `kiln_test_${randomBytes(6).toString("hex")}`;
  const admin = adminClient(url);
  try {
    await admin.connect();
  } catch (err) {
    throw new Error(
      `PostgreSQL is not reachable at ${url} (${(err as Error).message}). The storage tests run against it; ` +
        "start it (see README) or point KILN_TEST_DATABASE_URL at a server.",
    );
  }
  await admin.query(`create schema ${schema}`);
  await admin.end();
  const db = fromDialect(await createDialect({ type: "postgres", url, schema }));
  // Migrations hold SCHEMA_CHANGE_LOCK; drops below take it too, so that a migration's catalog walk
  // never meets a schema that another test process is dropping.
  await migrateToLatest(db, schema);
  return {
    dialect: "postgres",
    db,
    postgres: { url, schema },
    async close() {
      await db.destroy();
      const c = adminClient(url);
      await c.connect();
      await withSchemaLock(c, () => c.query(`drop schema ${schema} cascade`));
      await c.end();
    },
  };
}

/**
 * A dedicated connection for schema work. A lost connection fails the statement in progress;
 * the listener keeps the `error` event it also emits from killing the test process.
 */
function adminClient(url: string): pg.Client {
  const client = new pg.Client({ connectionString: url });
  client.on("error", () => {});
  return client;
}

/** Runs `work` holding SCHEMA_CHANGE_LOCK on the client's session. */
async function withSchemaLock<T>(client: pg.Client, work: () => Promise<T>): Promise<T> {
  await client.query("select pg_advisory_lock($1)", [SCHEMA_CHANGE_LOCK]);
  try {
    return await work();
  } finally {
    await client.query("select pg_advisory_unlock($1)", [SCHEMA_CHANGE_LOCK]);
  }
}

/**
 * A dump of a freshly migrated PGlite, built once per set of migrations and cached in the
 * temp directory: loading it takes ~0.5 s where creating and migrating takes ~3 s.
 */
async function pgliteTemplate(): Promise<Blob> {
  const key = Object.keys(migrations).join("|");
  const hash = (await import("node:crypto")).createHash("sha256").update(key).digest("hex").slice(0, 16);
  const dir = join(tmpdir(), "kiln-test-templates");
  const file = join(dir, `pglite-${hash}.tar`);
  try {
    return new Blob([await readFile(file)]);
  } catch {
    // Not cached yet: build it below.
  }
  const pool = await openPGlitePool("memory://");
  const db = fromDialect(new PostgresDialect({ pool }));
  await migrateToLatest(db);
  const dump = await (
    pool as unknown as { pglite: import("@electric-sql/pglite").PGlite }
  ).pglite.dumpDataDir("none");
  const bytes = Buffer.from(await dump.arrayBuffer());
  await db.destroy();
  await mkdir(dir, { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString("hex")}`;
  await writeFile(tmp, bytes);
  await rename(tmp, file);
  return new Blob([bytes]);
}

/** A short random suffix, so tests sharing one database do not collide on unique names. */
export function uniqueName(prefix: string): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

/** Drops a schema on the test PostgreSQL server (for tests that let a server create its own). */
export async function dropPostgresSchema(schema: string, url: string = testPostgresUrl()): Promise<void> {
  const c = adminClient(url);
  await c.connect();
  try {
    await withSchemaLock(c, () => c.query(`drop schema if exists ${pg.escapeIdentifier(schema)} cascade`));
  } finally {
    await c.end();
  }
}
