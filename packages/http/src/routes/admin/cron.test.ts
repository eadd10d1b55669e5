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
});
