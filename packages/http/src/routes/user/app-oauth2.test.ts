import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp } from "../../../test/support.js";

const CREATE = {
  name: "my app",
  redirect_uris: ["https://app.example/callback", "http://127.0.0.1/cb"],
  confidential_client: true,
};

describe.each(DIALECTS)("OAuth2 applications over HTTP on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(dialect);
  });
  afterAll(() => t?.close());

  it("creates an application (201) and shows the secret only then", async () => {
    const u = await t.user();
    const created = await t.call("POST", "/user/applications/oauth2", { token: u.token, body: CREATE });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name: "my app",
      redirect_uris: CREATE.redirect_uris,
      confidential_client: true,
    });
    expect(created.json.id).toBeGreaterThan(0);
    expect(created.json.client_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(created.json.client_secret).toMatch(/^gto_[a-z2-7]{52}$/);
    expect(Date.parse(created.json.created)).not.toBeNaN();

    const list = await t.call("GET", "/user/applications/oauth2", { token: u.token });
    expect(list.status).toBe(200);
    expect(list.headers.get("X-Total-Count")).toBe("1");
    expect(list.json).toHaveLength(1);
    expect(list.json[0]).toMatchObject({
      id: created.json.id,
      client_id: created.json.client_id,
      client_secret: "",
    });

    const one = await t.call("GET", `/user/applications/oauth2/${created.json.id}`, { token: u.token });
    expect(one.status).toBe(200);
    expect(one.json).toMatchObject({ name: "my app", client_secret: "" });
  });

  it("updates every field and regenerates the secret, as Forgejo does", async () => {
    const u = await t.user();
    const created = await t.call("POST", "/user/applications/oauth2", { token: u.token, body: CREATE });
    const updated = await t.call("PATCH", `/user/applications/oauth2/${created.json.id}`, {
      token: u.token,
      body: { name: "renamed", redirect_uris: ["com.example.app:/oauth"], confidential_client: false },
    });
    expect(updated.status).toBe(200);
    expect(updated.json).toMatchObject({
      id: created.json.id,
      client_id: created.json.client_id,
      name: "renamed",
      redirect_uris: ["com.example.app:/oauth"],
      confidential_client: false,
    });
    expect(updated.json.client_secret).toMatch(/^gto_/);
    expect(updated.json.client_secret).not.toBe(created.json.client_secret);
  });

  it("deletes an application (204), then it is gone (404)", async () => {
    const u = await t.user();
    const created = await t.call("POST", "/user/applications/oauth2", { token: u.token, body: CREATE });
    const path = `/user/applications/oauth2/${created.json.id}`;
    expect((await t.call("DELETE", path, { token: u.token })).status).toBe(204);
    expect((await t.call("GET", path, { token: u.token })).status).toBe(404);
    expect((await t.call("DELETE", path, { token: u.token })).status).toBe(404);
  });

  it("hides another user's application: 404 on get, update and delete", async () => {
    const owner = await t.user();
    const other = await t.user();
    const created = await t.call("POST", "/user/applications/oauth2", { token: owner.token, body: CREATE });
    const path = `/user/applications/oauth2/${created.json.id}`;
    expect((await t.call("GET", path, { token: other.token })).status).toBe(404);
    expect((await t.call("PATCH", path, { token: other.token, body: CREATE })).status).toBe(404);
    expect((await t.call("DELETE", path, { token: other.token })).status).toBe(404);
    const list = await t.call("GET", "/user/applications/oauth2", { token: other.token });
    expect(list.json).toEqual([]);
    expect((await t.call("GET", path, { token: owner.token })).status).toBe(200);
  });

  it("refuses bad input with 422: no name, no or invalid redirect URIs, too many", async () => {
    const u = await t.user();
    const bodies = [
      { redirect_uris: ["https://a.example/cb"] },
      { name: "", redirect_uris: ["https://a.example/cb"] },
      { name: "x".repeat(256), redirect_uris: ["https://a.example/cb"] },
      { name: "x" },
      { name: "x", redirect_uris: [] },
      { name: "x", redirect_uris: ["not a uri"] },
      { name: "x", redirect_uris: ["/relative/path"] },
      { name: "x", redirect_uris: ["javascript:alert(1)"] },
      { name: "x", redirect_uris: ["https://a.example/cb#fragment"] },
      { name: "x", redirect_uris: [`https://a.example/${"a".repeat(2048)}`] },
      { name: "x", redirect_uris: Array.from({ length: 33 }, (_, i) => `https://a.example/${i}`) },
    ];
    for (const body of bodies) {
      const res = await t.call("POST", "/user/applications/oauth2", { token: u.token, body });
      expect(res.status, JSON.stringify(body).slice(0, 80)).toBe(422);
      expect(res.json.message).toEqual(expect.any(String));
    }
    const list = await t.call("GET", "/user/applications/oauth2", { token: u.token });
    expect(list.json).toEqual([]);
  });

  it("needs a signed-in caller with the user scope", async () => {
    const u = await t.user();
    expect((await t.call("GET", "/user/applications/oauth2")).status).toBe(401);
    const token = await t.services.tokens.create((await t.services.users.findByName(u.name))!, "repo-only", [
      "write:repository",
    ]);
    const res = await t.call("POST", "/user/applications/oauth2", { token: token.secret, body: CREATE });
    expect(res.status).toBe(403);
    const readOnly = await t.services.tokens.create(
      (await t.services.users.findByName(u.name))!,
      "read-user",
      ["read:user"],
    );
    expect((await t.call("GET", "/user/applications/oauth2", { token: readOnly.secret })).status).toBe(200);
    expect(
      (await t.call("POST", "/user/applications/oauth2", { token: readOnly.secret, body: CREATE })).status,
    ).toBe(403);
  });
});

describe("OAuth2 applications with [oauth2] ENABLED = false", () => {
  it("answers 404", async () => {
    const t = await openTestApp("pglite", { oauth2: { enabled: false } });
    try {
      const u = await t.user();
      expect((await t.call("GET", "/user/applications/oauth2", { token: u.token })).status).toBe(404);
    } finally {
      await t.close();
    }
  });
});
