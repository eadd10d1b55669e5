import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { mirrors, repositories, users } from "./index.js";

const MINUTE = 60_000;

describe.each(DIALECTS)("mirror rows on %s", (dialect) => {
  let t: TestDatabase;
  let ownerId: number;
  const repo = async () => {
    const name = uniqueName("r");
    const owner = (await users.findUserById(t.db, ownerId))!;
    return (
      await repositories.insertRepository(t.db, { ownerId, ownerName: owner.name, name, lowerName: name })
    ).id;
  };

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const name = uniqueName("u");
    ownerId = (await users.insertUser(t.db, { name, lowerName: name })).id;
  });
  afterAll(() => t?.close());

  it("finds the pull mirrors that are due, oldest first, never one without an interval", async () => {
    const now = new Date();
    const [late, later, notYet, never] = [await repo(), await repo(), await repo(), await repo()];
    const insert = (repoId: number, nextUpdateAt: Date | null) =>
      mirrors.insertMirror(t.db, {
        repoId,
        remoteAddress: "https://example.com/r.git",
        credentials: "",
        intervalMs: nextUpdateAt ? 10 * MINUTE : 0,
        nextUpdateAt,
      });
    await insert(later, new Date(now.getTime() - MINUTE));
    await insert(late, new Date(now.getTime() - 5 * MINUTE));
    await insert(notYet, new Date(now.getTime() + MINUTE));
    await insert(never, null);
    const due = await mirrors.duePullMirrors(t.db, now, 10);
    expect(due.map((m) => m.repoId).filter((id) => [late, later, notYet, never].includes(id))).toEqual([
      late,
      later,
    ]);
    expect(typeof due[0]?.intervalMs).toBe("number");
    expect((await mirrors.mirrorsOf(t.db, [late, never, 0])).size).toBe(2);
    await mirrors.updateMirror(t.db, late, {
      nextUpdateAt: new Date(now.getTime() + 10 * MINUTE),
      lastError: "x",
    });
    expect((await mirrors.findMirror(t.db, late))?.lastError).toBe("x");
    expect((await mirrors.duePullMirrors(t.db, now, 10)).map((m) => m.repoId)).not.toContain(late);
  });

  it("finds the push mirrors whose interval has passed since their last push (never pushed: due)", async () => {
    const repoId = await repo();
    const now = new Date();
    const add = async (name: string, intervalMs: number, lastUpdateAt: Date | null) => {
      const row = await mirrors.insertPushMirror(t.db, {
        repoId,
        remoteName: name,
        remoteAddress: "https://example.com/r.git",
        credentials: "",
        intervalMs,
        syncOnCommit: name === "fresh",
      });
      if (lastUpdateAt) await mirrors.updatePushMirror(t.db, row.id, { lastUpdateAt });
      return row.id;
    };
    const fresh = await add("fresh", 10 * MINUTE, null);
    const stale = await add("stale", 10 * MINUTE, new Date(now.getTime() - 11 * MINUTE));
    await add("recent", 10 * MINUTE, new Date(now.getTime() - 9 * MINUTE));
    await add("manual", 0, null);
    const due = (await mirrors.duePushMirrors(t.db, now, 10)).filter((m) => m.repoId === repoId);
    expect(due.map((m) => m.id).sort()).toEqual([fresh, stale].sort());
    expect((await mirrors.syncOnCommitMirrors(t.db, repoId)).map((m) => m.remoteName)).toEqual(["fresh"]);
    const page = await mirrors.listPushMirrors(t.db, repoId, { page: 1, limit: 2 });
    expect([page.total, page.items.map((m) => m.remoteName)]).toEqual([4, ["fresh", "stale"]]);
    expect(await mirrors.deletePushMirror(t.db, repoId, "manual")).toBe(true);
    expect(await mirrors.deletePushMirror(t.db, repoId, "manual")).toBe(false);
    expect(await mirrors.findPushMirror(t.db, repoId, "manual")).toBeUndefined();
  });

  it("still finds due push mirrors when one row holds an interval past PostgreSQL's range", async () => {
    const repoId = await repo();
    const add = (remoteName: string, intervalMs: number) =>
      mirrors.insertPushMirror(t.db, {
        repoId,
        remoteName,
        remoteAddress: "https://example.com/r.git",
        credentials: "",
        intervalMs,
        syncOnCommit: false,
      });
    const huge = await add("huge", 30_000_000_000 * 3_600_000);
    const healthy = await add("healthy", 10 * MINUTE);
    const later = new Date(Date.now() + 11 * MINUTE);
    await mirrors.updatePushMirror(t.db, huge.id, { lastUpdateAt: new Date() });
    const due = (await mirrors.duePushMirrors(t.db, later, 100)).filter((m) => m.repoId === repoId);
    expect(due.map((m) => m.id)).toEqual([healthy.id]);
  });

  it("goes with its repository", async () => {
    const repoId = await repo();
    await mirrors.insertMirror(t.db, {
      repoId,
      remoteAddress: "https://example.com/r.git",
      credentials: "",
      intervalMs: 0,
      nextUpdateAt: null,
    });
    await mirrors.insertPushMirror(t.db, {
      repoId,
      remoteName: "remote_mirror_a",
      remoteAddress: "https://example.com/r.git",
      credentials: "",
      intervalMs: 0,
      syncOnCommit: false,
    });
    await repositories.deleteRepository(t.db, repoId);
    expect(await mirrors.findMirror(t.db, repoId)).toBeUndefined();
    expect(await mirrors.allPushMirrors(t.db, repoId)).toEqual([]);
  });
});
