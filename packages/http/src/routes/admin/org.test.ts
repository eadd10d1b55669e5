import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("admin organizations API on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let user: TestUser;
  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
    user = await t.user();
  });
  afterAll(() => t?.close());

  it("creates an organization owned by the user, with Forgejo's validation", async () => {
    const name = `made-for-${user.id}`;
    const res = await t.call("POST", `/admin/users/${user.name}/orgs`, {
      token: admin.token,
      body: { username: name, full_name: "Made", visibility: "private" },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ username: name, full_name: "Made", visibility: "private" });
    // The user owns it (not the admin): it is among the user's organizations and they may edit it.
    const mine = await t.call("GET", "/user/orgs", { token: user.token });
    expect(mine.json.map((o: { username: string }) => o.username)).toContain(name);
    expect(
      (await t.call("PATCH", `/orgs/${name}`, { token: user.token, body: { description: "mine" } })).status,
    ).toBe(200);
    const dup = await t.call("POST", `/admin/users/${user.name}/orgs`, {
      token: admin.token,
      body: { username: name },
    });
    expect(dup.status).toBe(422);
    expect(dup.json.message).toBe(`user already exists [name: ${name}]`);
    const reserved = await t.call("POST", `/admin/users/${user.name}/orgs`, {
      token: admin.token,
      body: { username: "api" },
    });
    expect(reserved.status).toBe(422);
    const forOrg = await t.call("POST", `/admin/users/${name}/orgs`, {
      token: admin.token,
      body: { username: "x-y" },
    });
    expect(forOrg.status).toBe(422);
    expect(
      (
        await t.call("POST", "/admin/users/no-such-user/orgs", {
          token: admin.token,
          body: { username: "zz" },
        })
      ).status,
    ).toBe(404);
    expect(
      (
        await t.call("POST", `/admin/users/${user.name}/orgs`, {
          token: user.token,
          body: { username: "zz" },
        })
      ).status,
    ).toBe(403);
  });

  it("lists every organization, private ones too, paged with Forgejo's headers", async () => {
    for (const visibility of ["public", "limited", "private"]) {
      await t.call("POST", `/admin/users/${user.name}/orgs`, {
        token: admin.token,
        body: { username: `list-${visibility}-${user.id}`, visibility },
      });
    }
    const all = await t.call("GET", "/admin/orgs?limit=50", { token: admin.token });
    expect(all.status).toBe(200);
    const names = all.json.map((o: { username: string }) => o.username);
    for (const visibility of ["public", "limited", "private"])
      expect(names).toContain(`list-${visibility}-${user.id}`);
    const total = Number(all.headers.get("X-Total-Count"));
    expect(total).toBe(names.length);
    const first = await t.call("GET", "/admin/orgs?limit=1", { token: admin.token });
    expect(first.json).toHaveLength(1);
    expect(first.headers.get("Link")).toBe(
      `<http://kiln.test/api/v1/admin/orgs?limit=1&page=2>; rel="next",<http://kiln.test/api/v1/admin/orgs?limit=1&page=${total}>; rel="last"`,
    );
    // What an ordinary user sees of /orgs leaves the private one out.
    const visible = (await t.call("GET", "/orgs?limit=50", { token: admin.token })).json;
    expect(visible.length).toBeGreaterThan(0);
    expect((await t.call("GET", "/admin/orgs", { token: user.token })).status).toBe(403);
    expect((await t.call("GET", "/admin/orgs")).status).toBe(401);
  });
});
