import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { lfsLocks, repositories, users } from "./index.js";

describe.each(DIALECTS)("LFS locks on %s", (dialect) => {
  let t: TestDatabase;
  let alice: number;
  let bob: number;
  let repo: number;
  let other: number;

  const user = async () => {
    const name = uniqueName("u");
    return (await users.insertUser(t.db, { name, lowerName: name })).id;
  };
  const newRepo = async (ownerId: number) => {
    const name = uniqueName("r");
    const ownerName = (await users.findUserById(t.db, ownerId))!.name;
    return (await repositories.insertRepository(t.db, { ownerId, ownerName, name, lowerName: name })).id;
  };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    alice = await user();
    bob = await user();
    repo = await newRepo(alice);
    other = await newRepo(alice);
  });
  afterAll(() => t?.close());

  it("locks a path once, whatever its case, and answers the holder to the second request", async () => {
    const first = await lfsLocks.createLock(t.db, repo, alice, "art/Hero.psd");
    expect(first.created).toBe(true);
    expect(first.lock).toMatchObject({ repoId: repo, ownerId: alice, path: "art/Hero.psd" });
    const again = await lfsLocks.createLock(t.db, repo, bob, "ART/hero.PSD");
    expect(again).toEqual({ created: false, lock: first.lock });
    // Another repository has its own paths.
    expect((await lfsLocks.createLock(t.db, other, bob, "art/Hero.psd")).created).toBe(true);
    expect(await lfsLocks.findLockByPath(t.db, repo, "art/hero.psd")).toEqual(first.lock);
  });

  it("lets exactly one of many concurrent requests for one path win", async () => {
    const results = await Promise.all(
      [alice, bob, alice, bob].map((owner) => lfsLocks.createLock(t.db, repo, owner, "race.bin")),
    );
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const winner = results.find((r) => r.created)?.lock;
    for (const r of results) expect(r.lock).toEqual(winner);
  });

  it("pages locks by id, finds them only in their repository, and deletes them", async () => {
    for (const path of ["p1", "p2", "p3"]) await lfsLocks.createLock(t.db, other, alice, path);
    const all = await lfsLocks.listLocks(t.db, other, { afterId: 0, limit: 100 });
    expect(all.map((l) => l.path)).toEqual(["art/Hero.psd", "p1", "p2", "p3"]);
    const page = await lfsLocks.listLocks(t.db, other, { afterId: all[0]!.id, limit: 2 });
    // One row more than asked: the caller learns that another page follows.
    expect(page.map((l) => l.path)).toEqual(["p1", "p2", "p3"]);
    const p1 = all[1]!;
    expect(await lfsLocks.findLockById(t.db, repo, p1.id)).toBeUndefined();
    expect(await lfsLocks.deleteLock(t.db, repo, p1.id)).toBe(false);
    expect(await lfsLocks.deleteLock(t.db, other, p1.id)).toBe(true);
    expect(await lfsLocks.findLockById(t.db, other, p1.id)).toBeUndefined();
  });

  it("lists the locks others hold for the push policy", async () => {
    const held = await lfsLocks.locksHeldByOthers(t.db, other, alice);
    const bobName = (await users.findUserById(t.db, bob))!.name;
    expect(held).toEqual([{ path: "art/Hero.psd", ownerName: bobName }]);
  });

  it("goes with its repository", async () => {
    const doomed = await newRepo(bob);
    await lfsLocks.createLock(t.db, doomed, bob, "x.bin");
    await t.db.deleteFrom("repository").where("id", "=", doomed).execute();
    expect(await t.db.selectFrom("lfsLock").select("id").where("repoId", "=", doomed).execute()).toEqual([]);
  });
});
