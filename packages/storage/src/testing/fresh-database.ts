import { randomBytes } from "node:crypto";
import pg from "pg";
import { testPostgresUrl } from "./postgres-url.js";

/**
 * A database of its own on the test PostgreSQL server, so that terminating "every backend of
 * this database" touches only the server under test, never another test's connections.
 */
export interface FreshDatabase {
  readonly name: string;
  /** The connection string of the database, through `port` when given (a proxy). */
  urlVia(port?: number): string;
  /** Terminates every backend connected to the database; resolves with how many. */
  terminateAll(): Promise<number>;
  drop(): Promise<void>;
}

function adminClient(): pg.Client {
  const client = new pg.Client({ connectionString: testPostgresUrl() });
  client.on("error", () => {});
  return client;
}

async function withAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = adminClient();
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Creates an empty database named `kiln_loss_<random>`. */
export async function createFreshDatabase(): Promise<FreshDatabase> {
  const name = `kiln_loss_${randomBytes(5).toString("hex")}`;
  await withAdmin((c) => c.query(`create database ${name}`));
  const base = new URL(testPostgresUrl());
  return {
    name,
    urlVia(port) {
      const url = new URL(base);
      url.pathname = `/${name}`;
      if (port !== undefined) url.port = String(port);
      return url.toString();
    },
    terminateAll: () =>
      withAdmin(async (c) => {
        const res = await c.query(
          "select pg_terminate_backend(pid) as done from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [name],
        );
        return res.rows.filter((r: { done: boolean }) => r.done).length;
      }),
    async drop() {
      await withAdmin((c) => c.query(`drop database if exists ${name} with (force)`));
    },
  };
}
