import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("admin repository creation on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
    user = await t.user();
  });
  afterAll(() => t?.close());

  it("creates a repository for a user or an organization, with the rules of normal creation", async () => {
    const made = await t.call("POST", `/admin/users/${user.name}/repos`, {
      token: admin.token,
      body: { name: "given", private: true, auto_init: true },
    });
    expect(made.status).toBe(201);
    expect(made.json).toMatchObject({ full_name: `${user.name}/given`, private: true, empty: false });
    expect(made.json.owner.login).toBe(user.name);
    // The user owns it: they see and may delete it.
    expect((await t.call("GET", `/repos/${user.name}/given`, { token: user.token })).status).toBe(200);
    const dup = await t.call("POST", `/admin/users/${user.name}/repos`, {
      token: admin.token,
      body: { name: "given" },
    });
    expect(dup.status).toBe(409);
    const bad = await t.call("POST", `/admin/users/${user.name}/repos`, {
      token: admin.token,
      body: { name: "x.git" },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe("name pattern is not allowed [pattern: *.git]");

    const org = `org-${user.id}`;
    await t.call("POST", "/orgs", { token: user.token, body: { username: org } });
    const inOrg = await t.call("POST", `/admin/users/${org}/repos`, {
      token: admin.token,
      body: { name: "shared" },
    });
    expect(inOrg.status).toBe(201);
    expect(inOrg.json.owner.login).toBe(org);

    expect(
      (await t.call("POST", "/admin/users/nobody-here/repos", { token: admin.token, body: { name: "n" } }))
        .status,
    ).toBe(404);
    expect(
      (await t.call("POST", `/admin/users/${user.name}/repos`, { token: user.token, body: { name: "n" } }))
        .status,
    ).toBe(403);
  });

  it("answers 413 when quota is enforced and the owner is over it", async () => {
    const strict = await openTestApp(dialect, { quota: { enabled: true, enforce: true, defaultTotal: 0 } });
    try {
      const a = await strict.user({ admin: true });
      const u = await strict.user();
      const res = await strict.call("POST", `/admin/users/${u.name}/repos`, {
        token: a.token,
        body: { name: "r" },
      });
      expect(res.status).toBe(413);
      expect(res.json).toMatchObject({ message: "quota exceeded", username: u.name });
    } finally {
      await strict.close();
    }
  });
});
