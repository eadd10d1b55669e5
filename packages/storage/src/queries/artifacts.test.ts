import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { artifacts, quotaRecount, repositories, users } from "./index.js";

const key = (n: number) => n.toString(16).padStart(64, "0");
const DAY = 86_400_000;

describe.each(DIALECTS)("Actions artifacts on %s", (dialect) => {
  let t: TestDatabase;
  let ownerId: number;
  let otherId: number;
  let repoA: number;
  let repoB: number;
  let otherRepo: number;
  const now = new Date();

  const user = async () => {
    const name = uniqueName("u");
    return (await users.insertUser(t.db, { name, lowerName: name })).id;
  };
  const repo = async (owner: number) => {
    const name = uniqueName("r");
    const ownerName = (await users.findUserById(t.db, owner))?.name ?? "";
    return (await repositories.insertRepository(t.db, { ownerId: owner, ownerName, name, lowerName: name }))
      .id;
  };
  const add = (repoId: number, runId: number, name: string, size: number, expiresInDays = 1) =>
    artifacts.insertArtifact(t.db, {
      repoId,
      runId,
      name,
      uploaderId: ownerId,
      blobKey: key(size),
      size,
      expiresAt: new Date(now.getTime() + expiresInDays * DAY),
    });

  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    ownerId = await user();
    otherId = await user();
    repoA = await repo(ownerId);
    repoB = await repo(ownerId);
    otherRepo = await repo(otherId);
    for (const [r, run, name, size, days] of [
      [repoA, 1, "build", 100, 1],
      [repoA, 1, "logs", 30, 1],
      [repoA, 2, "build", 200, 1],
      [repoA, 3, "old", 5000, -1],
      [repoB, 1, "build", 7, 1],
      [otherRepo, 1, "build", 1, 1],
    ] as const) {
      expect(await add(r, run, name, size, days)).toMatchObject({ repoId: r, runId: run, name, size });
    }
  });
  afterAll(() => t?.close());

  it("keeps one artifact per run and name", async () => {
    expect(await add(repoA, 1, "build", 999)).toBeUndefined();
    expect(await add(repoB, 2, "build", 999, -1)).toBeDefined();
  });

  it("lists a repository's live artifacts oldest first, by name and run, with the total", async () => {
    const page = { page: 1, limit: 2 };
    const all = await artifacts.listArtifacts(t.db, repoA, {}, page, now);
    expect(all.total).toBe(3);
    expect(all.items.map((a) => [a.runId, a.name])).toEqual([
      [1, "build"],
      [1, "logs"],
    ]);
    const named = await artifacts.listArtifacts(t.db, repoA, { name: "build" }, { page: 1, limit: 30 }, now);
    expect(named.items.map((a) => a.size)).toEqual([100, 200]);
    expect((await artifacts.listArtifacts(t.db, repoA, { runId: 2 }, page, now)).total).toBe(1);
    // An expired artifact is gone for readers before the expiry task removes it.
    expect((await artifacts.listArtifacts(t.db, repoA, { name: "old" }, page, now)).total).toBe(0);
  });

  it("finds an artifact only in its own repository and only while it lives", async () => {
    const [first] = (await artifacts.listArtifacts(t.db, repoA, {}, { page: 1, limit: 1 }, now)).items;
    expect(await artifacts.findArtifact(t.db, repoA, first?.id ?? 0, now)).toMatchObject({ name: "build" });
    expect(await artifacts.findArtifact(t.db, repoB, first?.id ?? 0, now)).toBeUndefined();
    const later = new Date(now.getTime() + 2 * DAY);
    expect(await artifacts.findArtifact(t.db, repoA, first?.id ?? 0, later)).toBeUndefined();
  });

  it("lists what counts against an owner largest first, and recounts every stored row", async () => {
    const used = await artifacts.listUsedArtifacts(t.db, ownerId, { page: 1, limit: 30 }, now);
    expect(used.items.map((a) => [a.name, a.size, a.runId])).toEqual([
      ["build", 200, 2],
      ["build", 100, 1],
      ["logs", 30, 1],
      ["build", 7, 1],
    ]);
    expect(used.total).toBe(4);
    // A public-only caller sees the public repositories' only (repoB is made private here).
    await t.db.updateTable("repository").set({ isPrivate: true }).where("id", "=", repoB).execute();
    const open = await artifacts.listUsedArtifacts(t.db, ownerId, { page: 1, limit: 30 }, now, true);
    expect([open.total, open.items.map((a) => a.size)]).toEqual([3, [200, 100, 30]]);
    await t.db.updateTable("repository").set({ isPrivate: false }).where("id", "=", repoB).execute();
    // Expired rows still count until the expiry task releases them with the rows.
    const counts = await quotaRecount.recountUsage(t.db, [ownerId, otherId], [artifacts.artifactUsage]);
    expect(counts.get(ownerId)?.artifacts).toBe(100 + 30 + 200 + 5000 + 7 + 999);
    expect(counts.get(otherId)?.artifacts).toBe(1);
    expect(await artifacts.repositoryArtifactUsage(t.db, repoA)).toEqual({ artifacts: 5330 });
  });

  it("answers which blob keys are referenced", async () => {
    expect(await artifacts.referencedArtifactBlobs(t.db, [key(100), key(12345), key(1)])).toEqual(
      new Set([key(100), key(1)]),
    );
    expect(await artifacts.referencedArtifactBlobs(t.db, [])).toEqual(new Set());
  });

  it("deletes expired artifacts per repository in batches, and one artifact by id", async () => {
    expect(await artifacts.reposWithExpiredArtifacts(t.db, now, 10)).toEqual(
      [repoA, repoB].sort((a, b) => a - b),
    );
    expect(await artifacts.deleteExpiredArtifacts(t.db, repoA, now, 10)).toEqual({ count: 1, bytes: 5000 });
    expect(await artifacts.deleteExpiredArtifacts(t.db, repoB, now, 10)).toEqual({ count: 1, bytes: 999 });
    expect(await artifacts.reposWithExpiredArtifacts(t.db, now, 10)).toEqual([]);
    const [logs] = (await artifacts.listArtifacts(t.db, repoA, { name: "logs" }, { page: 1, limit: 1 }, now))
      .items;
    expect(await artifacts.deleteArtifact(t.db, repoB, logs?.id ?? 0)).toBeUndefined();
    expect(await artifacts.deleteArtifact(t.db, repoA, logs?.id ?? 0)).toMatchObject({ size: 30 });
    expect(await artifacts.repositoryArtifactUsage(t.db, repoA)).toEqual({ artifacts: 300 });
  });
});
