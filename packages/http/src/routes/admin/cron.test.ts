import { mkdir, stat, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("admin cron API on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  let runs = 0;
  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
    user = await t.user();
    t.services.cron.register({
      name: "test_task",
      description: "counts",
      schedule: "@every 6h",
      run: async () => `run ${++runs}`,
    });
  });
  afterAll(() => t?.close());

  it("lists the tasks in Forgejo's shape, paged, to site admins only", async () => {
    const res = await t.call("GET", "/admin/cron", { token: admin.token });
    expect(res.status).toBe(200);
    const mine = res.json.find((task: { name: string }) => task.name === "test_task");
    expect(mine).toEqual({
      name: "test_task",
      schedule: "@every 6h",
      next: "0001-01-01T00:00:00Z",
      prev: "0001-01-01T00:00:00Z",
      exec_times: 0,
    });
    expect(Number(res.headers.get("X-Total-Count"))).toBe(res.json.length);
    const paged = await t.call("GET", "/admin/cron?limit=1&page=1", { token: admin.token });
    expect(paged.json).toHaveLength(1);
    expect((await t.call("GET", "/admin/cron", { token: user.token })).status).toBe(403);
    expect((await t.call("GET", "/admin/cron")).status).toBe(401);
  });

  it("runs a task and answers 204 once it ended; 404 for an unknown task", async () => {
    expect((await t.call("POST", "/admin/cron/test_task", { token: user.token })).status).toBe(403);
    const res = await t.call("POST", "/admin/cron/test_task", { token: admin.token });
    expect(res.status).toBe(204);
    expect(runs).toBe(1);
    const listed = (await t.call("GET", "/admin/cron", { token: admin.token })).json.find(
      (task: { name: string }) => task.name === "test_task",
    );
    expect(listed.exec_times).toBe(1);
    expect(Date.parse(listed.prev)).toBeGreaterThan(Date.now() - 60_000);
    expect((await t.call("POST", "/admin/cron/no_such_task", { token: admin.token })).status).toBe(404);
  });

  it("registers every periodic task of Kiln", async () => {
    const names = (await t.call("GET", "/admin/cron", { token: admin.token })).json.map(
      (task: { name: string }) => task.name,
    );
    for (const name of [
      "cleanup_actions",
      "cleanup_hook_task_table",
      "sweep_attachments",
      "sweep_packages",
      "sweep_artifacts",
      "sweep_avatars",
      "update_repository_size",
      "reconcile_ref_updates",
      "check_quota_usage",
      "cleanup_disk_leftovers",
    ]) {
      expect(names).toContain(name);
    }
  });

  it("re-measures repositories with update_repository_size and records the run", async () => {
    await t.call("POST", "/user/repos", { token: user.token, body: { name: "grows", auto_init: true } });
    const before = (await t.call("GET", `/repos/${user.name}/grows`, { token: user.token })).json.size;
    // Bytes written behind Kiln's back (a restored backup, a repack): only a recount sees them.
    const gitdir = t.services.repositories.store.pathOf(user.name, "grows");
    await writeFile(join(gitdir, "objects", "extra.bin"), Buffer.alloc(64 * 1024, 1));
    expect((await t.call("GET", `/repos/${user.name}/grows`, { token: user.token })).json.size).toBe(before);
    expect((await t.call("POST", "/admin/cron/update_repository_size", { token: admin.token })).status).toBe(
      204,
    );
    const after = (await t.call("GET", `/repos/${user.name}/grows`, { token: user.token })).json.size;
    expect(after).toBeGreaterThanOrEqual(before + 64);
    expect((await t.call("POST", "/admin/cron/check_quota_usage", { token: admin.token })).status).toBe(204);
    const tasks = (await t.call("GET", "/admin/cron", { token: admin.token })).json;
    for (const name of ["update_repository_size", "check_quota_usage"]) {
      const task = tasks.find((x: { name: string }) => x.name === name);
      expect(task.exec_times).toBe(1);
      expect(task.prev).not.toBe("0001-01-01T00:00:00Z");
    }
  });

  it("removes a push quarantine left for more than an hour with cleanup_disk_leftovers", async () => {
    await t.call("POST", "/user/repos", {
      token: user.token,
      body: { name: "killed-push", auto_init: true },
    });
    const gitdir = t.services.repositories.store.pathOf(user.name, "killed-push");
    const quarantine = join(gitdir, "objects", "tmp_objdir-incoming-gone");
    await mkdir(quarantine);
    await writeFile(join(quarantine, "pack.pack"), Buffer.alloc(1000));
    const then = new Date(Date.now() - 2 * 3_600_000);
    await utimes(join(quarantine, "pack.pack"), then, then);
    await utimes(quarantine, then, then);
    expect((await t.call("POST", "/admin/cron/cleanup_disk_leftovers", { token: admin.token })).status).toBe(
      204,
    );
    await expect(stat(quarantine)).rejects.toThrow(/ENOENT/);
    const task = (await t.call("GET", "/admin/cron", { token: admin.token })).json.find(
      (x: { name: string }) => x.name === "cleanup_disk_leftovers",
    );
    expect(task).toMatchObject({ schedule: "@every 24h", exec_times: 1 });
  });
});
