import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const total = (buckets: { contributions: number }[]) => buckets.reduce((sum, b) => sum + b.contributions, 0);

describe.each(DIALECTS)("GET /users/{username}/heatmap on %s", (dialect) => {
  let t: TestApp;
  let worker: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    worker = await t.user();
    outsider = await t.user();
    const open = await createRepo(t, worker, "open-work");
    const closed = await createRepo(t, worker, "closed-work", { private: true });
    for (const [repo, n] of [
      [open, 2],
      [closed, 3],
    ] as const) {
      for (let i = 0; i < n; i++) {
        const res = await t.call("POST", `${repo.path}/contents/f${i}.txt`, {
          token: worker.token,
          body: { content: Buffer.from(`${i}`).toString("base64"), message: `file ${i}` },
        });
        expect(res.status).toBe(201);
      }
    }
  });
  afterAll(() => t?.close());

  it("counts a user's activity per quarter hour, private repositories only for those who may see them", async () => {
    const own = await t.call("GET", `/users/${worker.name}/heatmap`, { token: worker.token });
    expect(own.status).toBe(200);
    for (const bucket of own.json) {
      expect(bucket.timestamp % 900).toBe(0);
      expect(bucket.timestamp).toBeLessThanOrEqual(Date.now() / 1000);
    }
    const others = await t.call("GET", `/users/${worker.name}/heatmap`, { token: outsider.token });
    const anonymous = await t.call("GET", `/users/${worker.name}/heatmap`);
    expect(total(own.json) - total(others.json)).toBeGreaterThanOrEqual(3);
    expect(total(others.json)).toBeGreaterThanOrEqual(2);
    expect(anonymous.json).toEqual(others.json);
  });

  it("shows nothing of a user who hides their activity, except to themselves", async () => {
    const hide = await t.call("PATCH", "/user/settings", {
      token: worker.token,
      body: { hide_activity: true },
    });
    expect(hide.status).toBe(200);
    expect((await t.call("GET", `/users/${worker.name}/heatmap`, { token: outsider.token })).json).toEqual(
      [],
    );
    expect(
      total((await t.call("GET", `/users/${worker.name}/heatmap`, { token: worker.token })).json),
    ).toBeGreaterThan(0);
  });

  it("answers 404 for an account that does not exist or is hidden", async () => {
    expect((await t.call("GET", "/users/nobody-here/heatmap")).status).toBe(404);
    const hidden = await t.user({ visibility: "private" });
    expect((await t.call("GET", `/users/${hidden.name}/heatmap`, { token: outsider.token })).status).toBe(
      404,
    );
  });
});
