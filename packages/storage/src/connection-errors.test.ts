import { DatabaseUnavailableError } from "@kiln/domain";
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectionLossReason, isConnectionLoss, unavailableOr } from "./connection-errors.js";
import { openTestDatabase, type TestDatabase, testPostgresUrl, uniqueName } from "./testing/index.js";

function pgError(code: string, message = "x"): Error {
  return Object.assign(new Error(message), { code });
}

describe("connection loss classification", () => {
  it("recognises the server ending or refusing the session by SQLSTATE", () => {
    for (const code of ["57P01", "57P02", "57P03", "08000", "08003", "08006", "08P01", "53300"]) {
      expect(isConnectionLoss(pgError(code)), code).toBe(true);
    }
  });

  it("recognises node socket errors and pg's lost-connection messages", () => {
    expect(isConnectionLoss(pgError("ECONNREFUSED"))).toBe(true);
    expect(isConnectionLoss(pgError("ECONNRESET"))).toBe(true);
    expect(isConnectionLoss(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(
      isConnectionLoss(new Error("Client has encountered a connection error and is not queryable")),
    ).toBe(true);
    expect(isConnectionLoss(new AggregateError([pgError("ECONNREFUSED")], "connect failed"))).toBe(true);
    expect(isConnectionLoss(new Error("wrapped", { cause: pgError("57P01") }))).toBe(true);
  });

  it("leaves statement errors alone", () => {
    for (const code of ["23505", "42P01", "40001", "57014", "22P02"]) {
      expect(isConnectionLoss(pgError(code)), code).toBe(false);
    }
    expect(isConnectionLoss(new Error("syntax error at or near"))).toBe(false);
    expect(isConnectionLoss("ECONNREFUSED")).toBe(false);
    const unique = pgError("23505");
    expect(unavailableOr(unique)).toBe(unique);
  });

  it("turns a loss into a DatabaseUnavailableError that names the cause", () => {
    const cause = pgError("57P01", "terminating connection due to administrator command");
    const err = unavailableOr(cause);
    expect(err).toBeInstanceOf(DatabaseUnavailableError);
    expect((err as Error).message).toMatch(/database is unavailable: the database server terminated/);
    expect((err as Error).cause).toBe(cause);
    expect(unavailableOr(err)).toBe(err);
    expect(connectionLossReason(pgError("ECONNREFUSED"))).toMatch(/refused/);
  });
});

describe("a PostgreSQL connection that is terminated", () => {
  let t: TestDatabase;
  let admin: pg.Client;
  beforeAll(async () => {
    t = await openTestDatabase("postgres");
    admin = new pg.Client({ connectionString: testPostgresUrl() });
    admin.on("error", () => {});
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.end();
    await t?.close();
  });

  const terminate = (pid: number) => admin.query("select pg_terminate_backend($1)", [pid]);
  const pidOf = async (db: TestDatabase["db"]) =>
    (await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(db)).rows[0]?.pid ?? 0;
  /** The first successful `select 1` within 5 s: the pool must open a fresh connection. */
  const answersAgain = async () => {
    const deadline = Date.now() + 5_000;
    for (;;) {
      try {
        return (await sql<{ one: number }>`select 1 as one`.execute(t.db)).rows[0]?.one;
      } catch (err) {
        if (Date.now() > deadline) throw err;
        await new Promise((r) => setTimeout(r, 50));
      }
    }
  };

  it("while idle in the pool is dropped without crashing, and the next query gets a fresh one", async () => {
    const pid = await t.db.connection().execute(pidOf);
    await terminate(pid);
    expect(await answersAgain()).toBe(1);
    expect(await pidOf(t.db)).not.toBe(pid);
  });

  it("inside a transaction fails it with DatabaseUnavailableError and commits nothing", async () => {
    const name = uniqueName("lost");
    const work = t.db.transaction().execute(async (trx) => {
      await trx.insertInto("users").values({ name, lowerName: name, maxRepoCreation: -1 }).execute();
      await terminate(await pidOf(trx));
      await sql`select pg_sleep(5)`.execute(trx);
    });
    await expect(work).rejects.toBeInstanceOf(DatabaseUnavailableError);
    expect(await answersAgain()).toBe(1);
    const found = await t.db.selectFrom("users").select("id").where("lowerName", "=", name).execute();
    expect(found).toEqual([]);
  });

  it("refused at checkout fails with DatabaseUnavailableError", async () => {
    const { createDialect } = await import("./dialect.js");
    const { fromDialect } = await import("./open.js");
    const db = fromDialect(
      await createDialect({ type: "postgres", url: "postgres://postgres@127.0.0.1:1/none" }),
    );
    try {
      await expect(sql`select 1`.execute(db)).rejects.toThrow(/database is unavailable: .*refused/);
    } finally {
      await db.destroy();
    }
  });
});
