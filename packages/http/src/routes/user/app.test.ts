import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../../test/support.js";

describe.each(DIALECTS)("access tokens over HTTP on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(dialect);
  });
  afterAll(() => t?.close());

  it("creates a token with Basic password auth and shows the secret once", async () => {
    const u = await t.user();
    const res = await t.call("POST", `/users/${u.name}/tokens`, {
      basic: u.basic,
      body: { name: "laptop", scopes: ["read:user"] },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ name: "laptop", scopes: ["read:user"] });
    expect(res.json.sha1).toMatch(/^[0-9a-f]{40}$/);
    expect(res.json.token_last_eight).toBe(res.json.sha1.slice(-8));
    const me = await t.call("GET", "/user", { token: res.json.sha1 });
    expect(me.json.login).toBe(u.name);
    const list = await t.call("GET", `/users/${u.name}/tokens`, { basic: u.basic });
    expect(list.status).toBe(200);
    expect(list.json.map((x: { name: string }) => x.name)).toEqual(["test", "laptop"]);
    // Forgejo always sends `sha1`: empty but for the response that creates the token.
    expect(list.json.every((x: { sha1?: string }) => x.sha1 === "")).toBe(true);
    expect(list.headers.get("X-Total-Count")).toBe("2");
  });

  it("refuses token auth for creating tokens (Forgejo requires the password)", async () => {
    const u = await t.user();
    const res = await t.call("POST", `/users/${u.name}/tokens`, {
      token: u.token,
      body: { name: "x", scopes: ["all"] },
    });
    expect(res.status).toBe(401);
    expect(res.json.message).toBe("auth method not allowed");
  });

  it("manages tokens only with Basic auth and the password; a token of any spelling gets 401", async () => {
    const u = await t.user();
    const tokenAuths = [
      { token: u.token },
      { headers: { Authorization: `Bearer ${u.token}` } },
      { basic: [u.name, u.token] as const },
      { basic: [u.token, ""] as const },
      { basic: [u.token, "x-oauth-basic"] as const },
    ];
    for (const auth of tokenAuths) {
      const create = await t.call("POST", `/users/${u.name}/tokens`, {
        ...auth,
        body: { name: "x", scopes: ["all"] },
      });
      expect(create.status).toBe(401);
      expect(create.json.message).toBe("auth method not allowed");
      const del = await t.call("DELETE", `/users/${u.name}/tokens/test`, auth);
      expect(del.status).toBe(401);
      expect(del.json.message).toBe("auth method not allowed");
      const list = await t.call("GET", `/users/${u.name}/tokens`, auth);
      expect(list.status).toBe(401);
      expect(list.json.message).toBe("auth method not allowed");
    }
    const list = await t.call("GET", `/users/${u.name}/tokens`, { basic: u.basic });
    expect(list.json.map((x: { name: string }) => x.name)).toEqual(["test"]);
    expect((await t.call("GET", `/users/${u.name}/tokens`)).status).toBe(401);
  });

  it("rejects a duplicate name, unknown scopes and a missing name", async () => {
    const u = await t.user();
    const dup = await t.call("POST", `/users/${u.name}/tokens`, {
      basic: u.basic,
      body: { name: "test", scopes: ["all"] },
    });
    expect(dup.status).toBe(400);
    expect(dup.json.message).toBe("access token name has been used already");
    const bad = await t.call("POST", `/users/${u.name}/tokens`, {
      basic: u.basic,
      body: { name: "b", scopes: ["read:nope"] },
    });
    expect(bad.status).toBe(400);
    const missing = await t.call("POST", `/users/${u.name}/tokens`, {
      basic: u.basic,
      body: { scopes: ["all"] },
    });
    expect(missing.status).toBe(422);
    expect(missing.json.message).toBe("[Name]: Required");
    const garbage = await t.call("POST", `/users/${u.name}/tokens`, { basic: u.basic, rawBody: "{not json" });
    expect(garbage.status).toBe(400);
  });

  it("deletes a token by name or by id; other users' tokens are off limits", async () => {
    const u = await t.user();
    const other = await t.user();
    const made = await t.call("POST", `/users/${u.name}/tokens`, {
      basic: u.basic,
      body: { name: "42", scopes: ["all"] },
    });
    const byId = await t.call("DELETE", `/users/${u.name}/tokens/${made.json.id}`, { basic: u.basic });
    expect(byId.status).toBe(204);
    const byName = await t.call("DELETE", `/users/${u.name}/tokens/test`, { basic: u.basic });
    expect(byName.status).toBe(204);
    expect((await t.call("GET", "/user", { token: u.token })).status).toBe(401);
    expect((await t.call("DELETE", `/users/${u.name}/tokens/test`, { basic: u.basic })).status).toBe(404);
    const foreign = await t.call("DELETE", `/users/${other.name}/tokens/test`, { basic: u.basic });
    expect(foreign.status).toBe(403);
  });
});
