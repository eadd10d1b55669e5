import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { quotaRecount, quotaUsage, repositories, users } from "./index.js";

describe.each(DIALECTS)("quota recount on %s", (dialect) => {
  let t: TestDatabase;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
  });
  afterAll(() => t?.close());

  async function owner() {
    const name = uniqueName("owner");
    return users.insertUser(t.db, { name, lowerName: name });
  }

  it("sums repository sizes per owner by visibility, with zeros for owners holding nothing", async () => {
    const a = await owner();
    const b = await owner();
    const none = await owner();
    const repo = (ownerId: number, isPrivate: boolean, gitSize: number, lfsSize: number) =>
      repositories.insertRepository(t.db, {
        ownerId,
        ownerName: "x",
        name: uniqueName("r"),
        lowerName: uniqueName("r"),
        isPrivate,
        gitSize,
        lfsSize,
      });
    await repo(a.id, false, 100, 1);
    await repo(a.id, false, 20, 2);
    await repo(a.id, true, 3000, 4);
    await repo(b.id, true, 5, 0);
    const counts = await quotaRecount.recountUsage(t.db, [a.id, b.id, none.id]);
    expect(counts.get(a.id)).toEqual({
      ...quotaUsage.NO_USAGE,
      reposPublic: 120,
      reposPrivate: 3000,
      lfs: 7,
    });
    expect(counts.get(b.id)).toEqual({ ...quotaUsage.NO_USAGE, reposPrivate: 5 });
    expect(counts.get(none.id)).toEqual(quotaUsage.NO_USAGE);
    expect(await quotaRecount.recountUsage(t.db, [])).toEqual(new Map());
  });

  it("adds every source's counters, ignoring owners not asked for", async () => {
    const a = await owner();
    const fake: quotaRecount.UsageSource = async () =>
      new Map([
        [a.id, { packages: 10, reposPublic: 1 }],
        [-5, { packages: 99 }],
      ]);
    const counts = await quotaRecount.recountUsage(t.db, [a.id], [fake, fake]);
    expect(counts.get(a.id)).toEqual({ ...quotaUsage.NO_USAGE, packages: 20, reposPublic: 2 });
    expect(counts.has(-5)).toBe(false);
  });

  it("walks every account by id in pages", async () => {
    const total = await quotaRecount.countOwners(t.db);
    const seen: number[] = [];
    for (let after = 0; ; ) {
      const page = await quotaRecount.listOwnersAfter(t.db, after, 2);
      if (page.length === 0) break;
      seen.push(...page.map((o) => o.id));
      after = page.at(-1)!.id;
    }
    expect(seen).toHaveLength(total);
    expect([...seen].sort((x, y) => x - y)).toEqual(seen);
  });

  it("reads many owners' counters at once, and locks (creating) one owner's row", async () => {
    const a = await owner();
    const b = await owner();
    await quotaUsage.addUsage(t.db, a.id, { lfs: 5 });
    const many = await quotaUsage.getUsages(t.db, [a.id, b.id]);
    expect(many.get(a.id)).toEqual({ ...quotaUsage.NO_USAGE, lfs: 5 });
    expect(many.has(b.id)).toBe(false);
    const locked = await t.db.transaction().execute((trx) => quotaUsage.lockUsage(trx, b.id));
    expect(locked).toEqual(quotaUsage.NO_USAGE);
    expect((await quotaUsage.getUsages(t.db, [b.id])).get(b.id)).toEqual(quotaUsage.NO_USAGE);
  });
});
