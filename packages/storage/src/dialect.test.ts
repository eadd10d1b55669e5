import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestDatabase, type TestDatabase, uniqueName } from "./testing/index.js";

describe("statements on PostgreSQL", () => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase("postgres");
  });
  afterAll(() => t?.close());

  it("are prepared once per connection and reused, with their values bound", async () => {
    const names = [uniqueName("prep-a"), uniqueName("prep-b")];
    const found = await t.db.transaction().execute(async (trx) => {
      const byName = (name: string) =>
        trx.selectFrom("users").select("id").where("lowerName", "=", name).executeTakeFirst();
      for (const name of names) {
        await trx.insertInto("users").values({ name, lowerName: name, maxRepoCreation: -1 }).execute();
      }
      const rows = [await byName(names[0] ?? ""), await byName(names[1] ?? ""), await byName("nobody")];
      const statements = await sql<{ statement: string }>`
        select statement from pg_prepared_statements`.execute(trx);
      return { rows, statements: statements.rows.map((r) => r.statement) };
    });
    expect(found.rows[0]?.id).toBeGreaterThan(0);
    expect(found.rows[1]?.id).toBeGreaterThan(found.rows[0]?.id ?? 0);
    expect(found.rows[2]).toBeUndefined();
    const lookups = found.statements.filter((s) => /from "users" where "lower_name" = \$1/.test(s));
    expect(lookups).toHaveLength(1);
    expect(found.statements.some((s) => s.startsWith('insert into "users"'))).toBe(true);
  });

  it("run DDL and several statements in one text unprepared", async () => {
    const table = uniqueName("scratch").replace(/-/g, "_");
    await sql.raw(`create table ${table} (id int); insert into ${table} values (1)`).execute(t.db);
    const rows = await sql<{ id: number }>`select id from ${sql.table(table)}`.execute(t.db);
    expect(rows.rows).toEqual([{ id: 1 }]);
    await sql.raw(`drop table ${table}`).execute(t.db);
  });
});
