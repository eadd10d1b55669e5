import { isKilnError } from "@kiln/domain";
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase } from "./testing/index.js";

describe.each(DIALECTS)("text the database cannot hold, on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t.close());

  it("is a bad request (a NUL byte from a query string), and the connection goes on", async () => {
    const failure = await sql`select ${"a\u0000b"}::text as v`.execute(t.db).catch((err: unknown) => err);
    expect(isKilnError(failure) && failure.kind).toBe("bad_request");
    expect((failure as Error).message).toContain("NUL byte");
    // The same in a transaction, then an ordinary statement on the same database.
    const inTransaction = await t.db
      .transaction()
      .execute((trx) => sql`select ${"\u0000"}::text as v`.execute(trx))
      .catch((err: unknown) => err);
    expect(isKilnError(inTransaction) && inTransaction.kind).toBe("bad_request");
    const { rows } = await sql<{ v: string }>`select ${"fine"}::text as v`.execute(t.db);
    expect(rows[0]?.v).toBe("fine");
  });
});
