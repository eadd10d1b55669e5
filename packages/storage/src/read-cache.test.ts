import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoAccess, users } from "./queries/index.js";
import { cachedRead, enableReadCache, ReadCache, WriteClock } from "./read-cache.js";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "./testing/index.js";

describe("ReadCache", () => {
  it("serves a stored result until the clock advances or the TTL passes", async () => {
    let now = 1_000;
    const clock = new WriteClock();
    const cache = new ReadCache(clock, { ttl: 100, now: () => now });
    let loads = 0;
    const load = async () => ++loads;
    expect(await cache.read("k", load)).toBe(1);
    expect(await cache.read("k", load)).toBe(1);
    clock.advance();
    expect(await cache.read("k", load)).toBe(2);
    now += 100;
    expect(await cache.read("k", load)).toBe(3);
  });

  it("does not store a result read while something was written", async () => {
    const clock = new WriteClock();
    const cache = new ReadCache(clock, { ttl: 60_000 });
    let loads = 0;
    await cache.read("k", async () => {
      clock.advance(); // a write landed during the read: the row may predate it
      return ++loads;
    });
    expect(await cache.read("k", async () => ++loads)).toBe(2);
  });

  it("keeps at most maxEntries, dropping the least recently used", async () => {
    const cache = new ReadCache(new WriteClock(), { ttl: 60_000, maxEntries: 2 });
    await cache.read("a", async () => "a");
    await cache.read("b", async () => "b");
    await cache.read("a", async () => "a"); // a is now the most recent
    await cache.read("c", async () => "c");
    expect(cache.size).toBe(2);
    expect(await cache.read("b", async () => "b again")).toBe("b again");
    expect(await cache.read("c", async () => "c again")).toBe("c");
  });

  it("stores nothing with a TTL of 0", async () => {
    const cache = new ReadCache(new WriteClock(), { ttl: 0 });
    let loads = 0;
    await cache.read("k", async () => ++loads);
    expect(await cache.read("k", async () => ++loads)).toBe(2);
  });
});

describe.each(DIALECTS)("the read cache on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    enableReadCache(t.db, { ttl: 60_000 });
  });
  afterAll(() => t?.close());

  async function repoOf() {
    const name = uniqueName("cache");
    const owner = await users.insertUser(t.db, { name, lowerName: name, email: `${name}@example.com` });
    await t.db
      .insertInto("repository")
      .values({ ownerId: owner.id, ownerName: name, name: "r", lowerName: "r" })
      .execute();
    return owner;
  }

  it("sees a write made through the same handle at once (insert, update, delete)", async () => {
    const owner = await repoOf();
    const find = () => repoAccess.findRepoAccess(t.db, { ownerName: owner.name, name: "r" }, null);
    expect((await find())[0]?.repo.isPrivate).toBe(false);
    await t.db.updateTable("repository").set({ isPrivate: true }).where("ownerId", "=", owner.id).execute();
    expect((await find())[0]?.repo.isPrivate).toBe(true);
    await t.db.deleteFrom("repository").where("ownerId", "=", owner.id).execute();
    expect(await find()).toEqual([]);
  });

  it("sees a write once its transaction commits, and raw SQL writes too", async () => {
    const owner = await repoOf();
    const find = () => repoAccess.findRepoAccess(t.db, { ownerName: owner.name, name: "r" }, null);
    expect((await find())[0]?.repo.description).toBe("");
    await t.db.transaction().execute(async (trx) => {
      await trx
        .updateTable("repository")
        .set({ description: "in a transaction" })
        .where("ownerId", "=", owner.id)
        .execute();
    });
    expect((await find())[0]?.repo.description).toBe("in a transaction");
    await sql`update repository set description = 'raw' where owner_id = ${owner.id}`.execute(t.db);
    expect((await find())[0]?.repo.description).toBe("raw");
  });

  it("never answers from the cache inside a transaction", async () => {
    let loads = 0;
    await cachedRead(t.db, "tx-key", async () => ++loads);
    await t.db.transaction().execute(async (trx) => {
      expect(await cachedRead(trx, "tx-key", async () => ++loads)).toBe(2);
    });
  });
});
