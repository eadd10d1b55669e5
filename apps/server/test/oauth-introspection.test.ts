import { randomBytes } from "node:crypto";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSiteTestApp, type SiteTestApp, type SiteUser } from "./site-support.js";

const REDIRECT = "https://client.example/cb";

describe.each(DIALECTS)("OAuth2 token introspection (RFC 7662) on %s", (dialect) => {
  let t: SiteTestApp;
  let alice: SiteUser;
  let client: { client_id: string; client_secret: string };
  let other: { client_id: string; client_secret: string };
  let tokens: { access_token: string; refresh_token: string };

  const post = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    t.app.request(`http://kiln.test${path}`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
      body: new URLSearchParams(fields).toString(),
    });
  const basic = (id: string, secret: string) => ({
    authorization: `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString("base64")}`,
  });
  const introspect = async (fields: Record<string, string>, headers: Record<string, string> = {}) => {
    const res = await post("/login/oauth/introspect", fields, headers);
    const text = await res.text();
    return {
      status: res.status,
      headers: res.headers,
      text,
      json: res.status === 200 ? JSON.parse(text) : undefined,
    };
  };

  async function newApp(user: SiteUser) {
    const res = await t.call("POST", "/user/applications/oauth2", {
      token: user.token,
      body: { name: "app", redirect_uris: [REDIRECT], confidential_client: true },
    });
    expect(res.status).toBe(201);
    return res.json as { client_id: string; client_secret: string };
  }

  beforeAll(async () => {
    t = await openSiteTestApp(dialect);
    alice = await t.user();
    client = await newApp(alice);
    other = await newApp(alice);
    const b = t.browser();
    const form = await b.get("/user/login");
    await b.post("/user/login", { _csrf: form.field("_csrf"), user_name: alice.name, password: "password1" });
    const state = randomBytes(4).toString("hex");
    const page = await b.get(
      `/login/oauth/authorize?${new URLSearchParams({ response_type: "code", client_id: client.client_id, redirect_uri: REDIRECT, state, scope: "openid read:user" })}`,
    );
    expect(page.status).toBe(200);
    const granted = await b.post("/login/oauth/grant", {
      _csrf: page.field("_csrf"),
      request_id: page.field("request_id"),
      client_id: page.field("client_id"),
      state: page.field("state"),
      scope: page.field("scope"),
      nonce: page.field("nonce"),
      redirect_uri: page.field("redirect_uri"),
      granted: "true",
    });
    const code = new URL(granted.location).searchParams.get("code") ?? "";
    const res = await post("/login/oauth/access_token", {
      grant_type: "authorization_code",
      code,
      redirect_uri: REDIRECT,
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(res.status).toBe(200);
    tokens = (await res.json()) as typeof tokens;
  });
  afterAll(() => t?.close());

  it("lists the endpoint in the OpenID discovery document", async () => {
    const res = await t.app.request("http://kiln.test/.well-known/openid-configuration");
    expect(((await res.json()) as Record<string, unknown>).introspection_endpoint).toBe(
      "http://kiln.test/login/oauth/introspect",
    );
  });

  it("answers an active token with Forgejo's fields, the client authenticating by Basic or in the form", async () => {
    const expected = {
      active: true,
      scope: "openid read:user",
      username: alice.name,
      iss: "http://kiln.test",
      sub: String(alice.id),
      aud: [client.client_id],
      exp: expect.any(Number),
      iat: expect.any(Number),
    };
    const byBasic = await introspect(
      { token: tokens.access_token },
      basic(client.client_id, client.client_secret),
    );
    expect(byBasic.status).toBe(200);
    expect(byBasic.headers.get("cache-control")).toBe("no-store");
    expect(byBasic.json).toEqual(expected);
    expect(byBasic.json.exp).toBeGreaterThan(byBasic.json.iat);
    const byForm = await introspect({
      token: tokens.access_token,
      token_type_hint: "access_token",
      client_id: client.client_id,
      client_secret: client.client_secret,
    });
    expect(byForm.json).toEqual(expected);
    // A refresh token of the grant is live too.
    const refresh = await introspect(
      { token: tokens.refresh_token },
      basic(client.client_id, client.client_secret),
    );
    expect(refresh.json).toMatchObject({ active: true, aud: [client.client_id] });
  });

  it("answers inactive, and nothing more, for what is no live token of the asking client", async () => {
    const tampered = `${tokens.access_token.slice(0, -2)}${tokens.access_token.endsWith("AA") ? "BB" : "AA"}`;
    for (const token of ["", "garbage", "a.b.c", tampered, alice.token]) {
      const res = await introspect({ token }, basic(client.client_id, client.client_secret));
      expect(res.status).toBe(200);
      expect(res.json).toEqual({ active: false });
    }
    // Another client learns nothing about this client's token (RFC 7662 §4).
    const foreign = await introspect(
      { token: tokens.access_token },
      basic(other.client_id, other.client_secret),
    );
    expect(foreign.json).toEqual({ active: false });
  });

  it("refuses clients that do not authenticate with 401", async () => {
    for (const headers of [
      {},
      basic(client.client_id, "wrong"),
      basic("no-such-client", client.client_secret),
      basic(client.client_id, other.client_secret),
      { authorization: `token ${alice.token}` },
      { authorization: "Basic !!!" },
    ]) {
      const res = await introspect({ token: tokens.access_token }, headers);
      expect(res.status).toBe(401);
      expect(res.text).toBe("no valid authorization");
      expect(res.headers.get("www-authenticate")).toBe('Basic realm=""');
    }
    const mismatch = await introspect(
      { token: tokens.access_token, client_id: other.client_id },
      basic(client.client_id, client.client_secret),
    );
    expect(mismatch.status).toBe(401);
  });
});
