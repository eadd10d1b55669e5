import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../../test/support.js";

describe.each(DIALECTS)("users over HTTP on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(dialect);
  });
  afterAll(() => t?.close());

  it("GET /user returns Forgejo's User fields, with private fields for the user themselves", async () => {
    const u = await t.user();
    const res = await t.call("GET", "/user", { token: u.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.json).sort()).toEqual(
      [
        "active",
        "avatar_url",
        "created",
        "description",
        "email",
        "followers_count",
        "following_count",
        "full_name",
        "html_url",
        "id",
        "is_admin",
        "language",
        "last_login",
        "location",
        "login",
        "login_name",
        "prohibit_login",
        "pronouns",
        "restricted",
        "source_id",
        "starred_repos_count",
        "username",
        "visibility",
        "website",
      ].sort(),
    );
    expect(res.json).toMatchObject({
      id: u.id,
      login: u.name,
      email: `${u.name}@example.com`,
      active: true,
      html_url: `http://kiln.test/${u.name}`,
    });
  });

  it("shows others a user without their e-mail when it is kept private, and never to anonymous callers", async () => {
    const u = await t.user();
    const other = await t.user();
    await t.call("PATCH", "/user/settings", { token: u.token, body: { hide_email: true } });
    const seen = await t.call("GET", `/users/${u.name.toUpperCase()}`, { token: other.token });
    expect(seen.status).toBe(200);
    expect(seen.json.email).toBe(`${u.name}@noreply.kiln.test`);
    expect(seen.json.is_admin).toBe(false);
    const anonymous = await t.call("GET", `/users/${other.name}`);
    expect(anonymous.json.email).toBe(`${other.name}@noreply.kiln.test`);
  });

  it("answers 404 for private users to others, and limited users to anonymous callers", async () => {
    const priv = await t.user({ visibility: "private" });
    const lim = await t.user({ visibility: "limited" });
    const other = await t.user();
    const hidden = await t.call("GET", `/users/${priv.name}`, { token: other.token });
    expect(hidden.status).toBe(404);
    expect(hidden.json.errors).toEqual([]);
    expect((await t.call("GET", `/users/${priv.name}`, { token: priv.token })).status).toBe(200);
    expect((await t.call("GET", `/users/${lim.name}`)).status).toBe(404);
    expect((await t.call("GET", `/users/${lim.name}`, { token: other.token })).status).toBe(200);
  });

  it("searches by e-mail only where the address is not kept private, except for its owner and admins", async () => {
    const hidden = await t.user();
    const shown = await t.user();
    const other = await t.user();
    const admin = await t.user({ admin: true });
    await t.call("PATCH", "/user/settings", { token: hidden.token, body: { hide_email: true } });
    const found = async (q: string, token?: string) => {
      const res = await t.call("GET", `/users/search?q=${encodeURIComponent(q)}`, token ? { token } : {});
      expect(res.status).toBe(200);
      return (res.json.data as { login: string }[]).map((u) => u.login);
    };
    // The whole address as the keyword matches no name, so only the e-mail can find its owner.
    const hiddenAddress = `${hidden.name}@example.com`;
    expect(await found(hiddenAddress, other.token)).toEqual([]);
    expect(await found(hiddenAddress)).toEqual([]);
    expect(await found(hiddenAddress, hidden.token)).toEqual([hidden.name]);
    expect(await found(hiddenAddress, admin.token)).toEqual([hidden.name]);
    expect(await found(`${shown.name}@example.com`, other.token)).toEqual([shown.name]);
    expect(await found(`${shown.name}@example.com`)).toEqual([shown.name]);
  });

  it("searches users with totals, respecting visibility", async () => {
    const a = await t.user({ name: `findme-${Date.now()}-a` });
    await t.user({ name: `findme-${Date.now()}-b`, visibility: "private" });
    const res = await t.call("GET", "/users/search?q=findme", { token: a.token });
    expect(res.status).toBe(200);
    expect(res.json.ok).toBe(true);
    expect(res.json.data.map((x: { login: string }) => x.login)).toEqual([a.name]);
    expect(res.headers.get("X-Total-Count")).toBe("1");
    const byId = await t.call("GET", `/users/search?uid=${a.id}`);
    expect(byId.json.data[0].id).toBe(a.id);
  });

  it("reads and updates the signed-in user's settings", async () => {
    const u = await t.user();
    const before = await t.call("GET", "/user/settings", { token: u.token });
    expect(before.json).toMatchObject({ hide_email: false, full_name: "" });
    const after = await t.call("PATCH", "/user/settings", {
      token: u.token,
      body: { full_name: "Una User", location: "Oslo", hide_activity: true },
    });
    expect(after.status).toBe(200);
    expect(after.json).toMatchObject({
      full_name: "Una User",
      location: "Oslo",
      hide_activity: true,
      hide_email: false,
    });
    expect((await t.call("GET", "/user", { token: u.token })).json.full_name).toBe("Una User");
    const bad = await t.call("PATCH", "/user/settings", {
      token: u.token,
      body: { location: "x".repeat(51) },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toMatch(/^\[Location\]: /);
  });

  it("lists, adds and deletes e-mail addresses", async () => {
    const u = await t.user();
    const added = await t.call("POST", "/user/emails", {
      token: u.token,
      body: { emails: [`${u.name}+1@example.org`] },
    });
    expect(added.status).toBe(201);
    expect(added.json).toEqual([
      { email: `${u.name}+1@example.org`, verified: true, primary: false, user_id: u.id, username: u.name },
    ]);
    const list = await t.call("GET", "/user/emails", { token: u.token });
    expect(list.json.map((e: { email: string }) => e.email)).toEqual([
      `${u.name}@example.com`,
      `${u.name}+1@example.org`,
    ]);
    expect(
      (await t.call("POST", "/user/emails", { token: u.token, body: { emails: ["not-an-address"] } })).status,
    ).toBe(422);
    const del = await t.call("DELETE", "/user/emails", {
      token: u.token,
      body: { emails: [`${u.name}+1@example.org`] },
    });
    expect(del.status).toBe(204);
    expect(
      (await t.call("DELETE", "/user/emails", { token: u.token, body: { emails: ["gone@example.org"] } }))
        .status,
    ).toBe(404);
  });

  it("answers an unknown API path with Forgejo's not-found body", async () => {
    const res = await t.call("GET", "/no/such/endpoint");
    expect(res.status).toBe(404);
    expect(res.json).toEqual({
      message: "The target couldn't be found.",
      url: "http://kiln.test/api/swagger",
      errors: [],
    });
  });
});
