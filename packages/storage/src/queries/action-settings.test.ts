import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DIALECTS, openTestDatabase, type TestDatabase, uniqueName } from "../testing/index.js";
import { actionRuns, actionSettings, repositories, users } from "./index.js";

describe.each(DIALECTS)("Actions settings and runs on %s", (dialect) => {
  let t: TestDatabase;
  let ownerId: number;
  let repoId: number;
  beforeAll(async () => {
    t = await openTestDatabase(dialect);
    const name = uniqueName("act");
    const owner = await users.insertUser(t.db, { name, lowerName: name });
    ownerId = owner.id;
    repoId = (
      await repositories.insertRepository(t.db, {
        ownerId,
        ownerName: owner.name,
        name: "r",
        lowerName: "r",
        defaultBranch: "main",
      })
    ).id;
  });
  afterAll(async () => t?.close());

  it("keeps names unique per scope, the same name free in another scope", async () => {
    const repo = { repoId };
    const owner = { ownerId };
    expect(await actionSettings.insertSetting(t.db, "actionSecret", repo, "A", "1")).toBeDefined();
    expect(await actionSettings.insertSetting(t.db, "actionSecret", repo, "A", "2")).toBeUndefined();
    expect(await actionSettings.insertSetting(t.db, "actionSecret", owner, "A", "3")).toBeDefined();
    expect(await actionSettings.insertSetting(t.db, "actionVariable", repo, "A", "4")).toBeDefined();
    const list = await actionSettings.listSettings(t.db, "actionSecret", repo, { page: 1, limit: 10 });
    expect(list.total).toBe(1);
    expect(list.items[0]?.data).toBe("1");
    expect(await actionSettings.deleteSetting(t.db, "actionSecret", owner, "A")).toBe(true);
    expect(await actionSettings.deleteSetting(t.db, "actionSecret", owner, "A")).toBe(false);
  });

  it("keeps the first runner token of a scope", async () => {
    const first = await actionSettings.insertRunnerToken(t.db, {
      scopeKey: `repo:${repoId}`,
      ownerId: null,
      repoId,
      token: "sealed-1",
      tokenHash: uniqueName("h"),
    });
    const second = await actionSettings.insertRunnerToken(t.db, {
      scopeKey: `repo:${repoId}`,
      ownerId: null,
      repoId,
      token: "sealed-2",
      tokenHash: uniqueName("h"),
    });
    expect(second.id).toBe(first.id);
    expect(second.token).toBe("sealed-1");
  });

  it("numbers runs per repository and finds waiting jobs", async () => {
    const run = (title: string) =>
      t.db.transaction().execute(async (trx) => {
        await actionRuns.lockRepository(trx, repoId);
        return actionRuns.insertRun(
          trx,
          {
            repoId,
            ownerId,
            title,
            workflowId: "ci.yml",
            triggerUserId: ownerId,
            ref: "refs/heads/main",
            commitSha: "a".repeat(40),
            event: "workflow_dispatch",
            status: "waiting",
            inputs: "{}",
            startedAt: null,
            stoppedAt: null,
          },
          [{ name: "j", needs: "[]", runsOn: '["x"]', status: "waiting" }],
        );
      });
    const [a, b] = [await run("one"), await run("two")];
    expect([a.run.index, b.run.index]).toEqual([1, 2]);
    const jobs = await actionRuns.pendingJobs(t.db, { repoId }, ["x", "y"], 10);
    expect(jobs.map((j) => j.runId)).toEqual([a.run.id, b.run.id]);
    // Only jobs every label of which is offered match, in SQL.
    expect(await actionRuns.pendingJobs(t.db, { repoId }, ["y"], 10)).toEqual([]);
    const page = await actionRuns.listRuns(t.db, repoId, { runNumber: 2 }, { page: 1, limit: 10 });
    expect(page.items.map((r) => r.title)).toEqual(["two"]);
  });
});
