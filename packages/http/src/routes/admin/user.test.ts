import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkUsers, openTestApp, type TestApp } from "../../../test/support.js";

describe.each(DIALECTS)("user administration over HTTP on %s", (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp["user"]>>;
  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
  });
  afterAll(() => t?.close());

  it("creates users (201) and refuses duplicates and invalid input with Forgejo's statuses", async () => {
    const body = {
      username: "quota-user-1",
      email: "api+quota-user-1@example.com",
      password: "password",
      must_change_password: false,
    };
    const created = await t.call("POST", "/admin/users", { token: admin.token, body });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      login: "quota-user-1",
      email: "api+quota-user-1@example.com",
      is_admin: false,
    });
    const dup = await t.call("POST", "/admin/users", { token: admin.token, body });
    expect(dup.status).toBe(422);
    expect(dup.json.message).toBe("user already exists [name: quota-user-1]");
    expect(
      (await t.call("POST", "/admin/users", { token: admin.token, body: { username: "x1" } })).json.message,
    ).toBe("[Email]: Required");
    expect(
      (await t.call("POST", "/admin/users", { token: admin.token, body: { ...body, username: "api" } }))
        .status,
    ).toBe(422);
    expect(
      (
        await t.call("POST", "/admin/users", {
          token: admin.token,
          body: { ...body, username: "n2", email: "n2@e.org", password: "1" },
        })
      ).status,
    ).toBe(400);
  });

  it("forces a password change by default, as Forgejo's admin API does", async () => {
    await t.call("POST", "/admin/users", {
      token: admin.token,
      body: { username: "newbie", email: "newbie@example.com", password: "password1" },
    });
    const res = await t.call("GET", "/user", { basic: ["newbie", "password1"] });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      "You must change your password. Change it at: http://kiln.test/user/change_password",
    );
  });

  it("is for site admins only", async () => {
    const u = await t.user();
    const res = await t.call("GET", "/admin/users", { token: u.token });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe("user should be the site admin");
    expect((await t.call("GET", "/admin/users")).status).toBe(401);
  });

  it("pages the user list with X-Total-Count and Link, clamping limit to MAX_RESPONSE_ITEMS", async () => {
    await bulkUsers(t.services, "page-user", 55);
    const one = await t.call("GET", "/admin/users?limit=1", { token: admin.token });
    expect(one.status).toBe(200);
    expect(one.json).toHaveLength(1);
    const total = Number(one.headers.get("X-Total-Count"));
    expect(total).toBeGreaterThanOrEqual(56);
    expect(one.headers.get("Link")).toBe(
      `<http://kiln.test/api/v1/admin/users?limit=1&page=2>; rel="next",<http://kiln.test/api/v1/admin/users?limit=1&page=${total}>; rel="last"`,
    );
    const many = await t.call("GET", "/admin/users?limit=500", { token: admin.token });
    expect(many.json).toHaveLength(50);
    const sorted = await t.call("GET", "/admin/users?sort=reversealphabetically&limit=3", {
      token: admin.token,
    });
    const names = sorted.json.map((u: { login: string }) => u.login);
    expect(names).toEqual([...names].sort().reverse());
  });

  it("edits a user, refusing to drop the last admin", async () => {
    const u = await t.user();
    const res = await t.call("PATCH", `/admin/users/${u.name}`, {
      token: admin.token,
      body: { full_name: "Edited", max_repo_creation: 3, visibility: "limited", admin: true },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ full_name: "Edited", visibility: "limited", is_admin: true });
    await t.call("PATCH", `/admin/users/${u.name}`, { token: admin.token, body: { admin: false } });
    const last = await t.call("PATCH", `/admin/users/${admin.name}`, {
      token: admin.token,
      body: { admin: false },
    });
    expect(last.status).toBe(400);
    expect((await t.call("PATCH", "/admin/users/nobody-x", { token: admin.token, body: {} })).status).toBe(
      404,
    );
  });

  it("deletes users, but never the acting admin", async () => {
    const u = await t.user();
    expect((await t.call("DELETE", `/admin/users/${u.name}`, { token: admin.token })).status).toBe(204);
    expect((await t.call("GET", `/users/${u.name}`, { token: admin.token })).status).toBe(404);
    const self = await t.call("DELETE", `/admin/users/${admin.name}`, { token: admin.token });
    expect(self.status).toBe(422);
    expect(self.json.message).toBe("you cannot delete yourself");
  });
});
