import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { migrateToLatest } from "./open.js";
import { users } from "./queries/index.js";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "./testing/index.js";

describe.each(DIALECTS)("the database on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t?.close());

  it("is migrated, and migrating again applies nothing", async () => {
    expect(await migrateToLatest(t.db, t.postgres?.schema)).toEqual([]);
  });

  it("returns int8 and numeric values as numbers on both dialects", async () => {
    const row = await sql<{
      big: number;
      num: number;
    }>`select 9007199254740991::int8 as big, 12.5::numeric as num`.execute(t.db);
    expect(row.rows[0]).toEqual({ big: 9007199254740991, num: 12.5 });
  });

  it("runs concurrent transactions without interleaving them", async () => {
    const name = uniqueName("counter");
    const u = await users.insertUser(t.db, { name, lowerName: name, maxRepoCreation: 0 });
    await Promise.all(
      Array.from({ length: 20 }, () =>
        t.db.transaction().execute(async (trx) => {
          const row = await trx
            .selectFrom("users")
            .select("maxRepoCreation")
            .where("id", "=", u.id)
            .forUpdate()
            .executeTakeFirstOrThrow();
          await new Promise((r) => setTimeout(r, 1));
          await trx
            .updateTable("users")
            .set({ maxRepoCreation: row.maxRepoCreation + 1 })
            .where("id", "=", u.id)
            .execute();
        }),
      ),
    );
    expect((await users.findUserById(t.db, u.id))?.maxRepoCreation).toBe(20);
  });

  it("rolls back a failed transaction completely", async () => {
    const name = uniqueName("rollback");
    await expect(
      t.db.transaction().execute(async (trx) => {
        await users.insertUser(trx, { name, lowerName: name });
        throw new Error("boom");
      }),
    ).rejects.toThrow("boom");
    expect(await users.findUserByName(t.db, name)).toBeUndefined();
  });
});
