import { createHash, randomBytes } from "node:crypto";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openSiteTestApp, type SiteTestApp, type SiteUser } from "./site-support.js";
import type { WebBrowser } from "./web-browser.js";

const REDIRECT = "https://client.example/cb";

describe.each(DIALECTS)(
  "the OAuth2 provider's pages (@kiln/web) and endpoints (@kiln/http) on %s",
  (dialect) => {
    let t: SiteTestApp;
    beforeAll(async () => {
      t = await openSiteTestApp(dialect);
    });
    afterAll(() => t?.close());

    const browserFor = () => t.browser();

    async function signedIn(user: SiteUser): Promise<WebBrowser> {
      const b = browserFor();
      const form = await b.get("/user/login");
      const res = await b.post("/user/login", {
        _csrf: form.field("_csrf"),
        user_name: user.name,
        password: "password1",
      });
      expect(res.status).toBe(303);
      return b;
    }

    async function newApp(user: SiteUser, body: Record<string, unknown> = {}) {
      const res = await t.call("POST", "/user/applications/oauth2", {
        token: user.token,
        body: { name: "app", redirect_uris: [REDIRECT], confidential_client: true, ...body },
      });
      expect(res.status).toBe(201);
      return res.json as { id: number; client_id: string; client_secret: string };
    }

    const authorizeUrl = (params: Record<string, string>) =>
      `/login/oauth/authorize?${new URLSearchParams({ response_type: "code", redirect_uri: REDIRECT, state: "st", ...params })}`;

    async function token(fields: Record<string, string>, headers: Record<string, string> = {}) {
      const res = await t.app.request("http://kiln.test/login/oauth/access_token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body: new URLSearchParams(fields).toString(),
      });
      return { status: res.status, json: (await res.json()) as Record<string, string> };
    }

    /** Runs the consent for a request and returns the redirect back to the client. */
    async function consent(b: WebBrowser, url: string, granted = "true"): Promise<URL> {
      const page = await b.get(url);
      expect(page.status).toBe(200);
      const res = await b.post("/login/oauth/grant", {
        _csrf: page.field("_csrf"),
        request_id: page.field("request_id"),
        client_id: page.field("client_id"),
        state: page.field("state"),
        scope: page.field("scope"),
        nonce: page.field("nonce"),
        redirect_uri: page.field("redirect_uri"),
        granted,
      });
      expect(res.status).toBe(303);
      return new URL(res.location);
    }

    it("answers bad authorization requests as Forgejo: a page for untrusted clients, else a redirect", async () => {
      const u = await t.user();
      const app = await newApp(u, { confidential_client: false });
      const b = await signedIn(u);
      const unknown = await b.get(authorizeUrl({ client_id: "nope" }));
      expect(unknown.status).toBe(400);
      expect(unknown.html).toContain("unauthorized_client");
      const unregistered = await b.get(
        authorizeUrl({ client_id: app.client_id, redirect_uri: "https://evil.example/" }),
      );
      expect(unregistered.status).toBe(400);
      expect(unregistered.html).toContain("Unregistered Redirect URI");
      const implicit = await b.get(authorizeUrl({ client_id: app.client_id, response_type: "token" }));
      expect(implicit.status).toBe(303);
      expect(Object.fromEntries(new URL(implicit.location).searchParams)).toEqual({
        error: "unsupported_response_type",
        error_description: "Only code response type is supported.",
        state: "st",
      });
      const noPkce = await b.get(authorizeUrl({ client_id: app.client_id }));
      expect(new URL(noPkce.location).searchParams.get("error_description")).toBe(
        "PKCE is required for public clients",
      );
      const badMethod = await b.get(
        authorizeUrl({
          client_id: app.client_id,
          code_challenge: "x".repeat(43),
          code_challenge_method: "S512",
        }),
      );
      expect(new URL(badMethod.location).searchParams.get("error_description")).toBe(
        "unsupported code challenge method",
      );
    });

    it("completes a flow with plain PKCE; a denied consent redirects with access_denied", async () => {
      const u = await t.user();
      const app = await newApp(u, { confidential_client: false });
      const b = await signedIn(u);
      const verifier = randomBytes(40).toString("base64url");
      const url = authorizeUrl({
        client_id: app.client_id,
        code_challenge: verifier,
        code_challenge_method: "plain",
      });
      const denied = await consent(b, url, "false");
      expect(denied.searchParams.get("error")).toBe("access_denied");
      const back = await consent(b, url);
      const code = back.searchParams.get("code") ?? "";
      const tokens = await token({
        grant_type: "authorization_code",
        client_id: app.client_id,
        code,
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      });
      expect(tokens.status).toBe(200);
      const me = await t.app.request("http://kiln.test/api/v1/user", {
        headers: { authorization: `Bearer ${tokens.json.access_token}` },
      });
      expect(me.status).toBe(200);
      expect(((await me.json()) as { login: string }).login).toBe(u.name);
    });

    it("refuses a consent post that is forged or answers another request", async () => {
      const u = await t.user();
      const app = await newApp(u);
      const b = await signedIn(u);
      const page = await b.get(authorizeUrl({ client_id: app.client_id }));
      const fields = {
        client_id: app.client_id,
        state: "st",
        scope: "",
        nonce: "",
        redirect_uri: REDIRECT,
        granted: "true",
      };
      expect((await b.post("/login/oauth/grant", { ...fields, _csrf: "forged" })).status).toBe(400);
      expect(
        (await b.post("/login/oauth/grant", { ...fields, _csrf: page.field("_csrf"), state: "other" }))
          .status,
      ).toBe(400);
      // Another browser (another session) cannot answer it either.
      const other = await signedIn(await t.user());
      expect((await other.post("/login/oauth/grant", { ...fields, _csrf: page.field("_csrf") })).status).toBe(
        400,
      );
    });

    it("refuses a consent post for a page that another authorize request replaced", async () => {
      const u = await t.user();
      const app = await newApp(u);
      const b = await signedIn(u);
      const shown = await b.get(authorizeUrl({ client_id: app.client_id, scope: "read:user" }));
      // The application opens a second request in the same session, with more scopes.
      await b.get(authorizeUrl({ client_id: app.client_id, scope: "write:repository write:user" }));
      const fields = {
        _csrf: shown.field("_csrf"),
        request_id: shown.field("request_id"),
        client_id: app.client_id,
        state: "st",
        scope: "read:user",
        nonce: "",
        redirect_uri: REDIRECT,
        granted: "true",
      };
      expect((await b.post("/login/oauth/grant", fields)).status).toBe(400);
      // The page that is current still works.
      const current = await b.get(authorizeUrl({ client_id: app.client_id, scope: "read:user" }));
      const res = await b.post("/login/oauth/grant", { ...fields, request_id: current.field("request_id") });
      expect(res.status).toBe(303);
      expect(new URL(res.location).searchParams.get("code")).toBeTruthy();
    });

    it("escapes what the consent page shows", async () => {
      const u = await t.user();
      const app = await newApp(u, { name: `<script>alert("x")</script>` });
      const b = await signedIn(u);
      const page = await b.get(authorizeUrl({ client_id: app.client_id, state: `"><img src=x>` }));
      expect(page.html).not.toContain("<script>alert");
      expect(page.html).not.toContain(`"><img src=x>`);
      expect(page.html).toContain(`value="&quot;&gt;&lt;img src=x&gt;"`);
      expect(page.html).toContain("&lt;script&gt;");
      expect(page.headers.get("content-security-policy")).toContain("frame-ancestors 'none'");
    });

    it("answers token requests with Forgejo's OAuth2 errors", async () => {
      const u = await t.user();
      const app = await newApp(u);
      expect(await token({ grant_type: "password", client_id: app.client_id })).toEqual({
        status: 400,
        json: {
          error: "unsupported_grant_type",
          error_description: "Only refresh_token or authorization_code grant type is supported",
        },
      });
      expect(
        (await token({ grant_type: "authorization_code", client_id: "nope", code: "x" })).json.error,
      ).toBe("invalid_client");
      expect(await token({ grant_type: "authorization_code", client_id: app.client_id, code: "x" })).toEqual({
        status: 400,
        json: { error: "unauthorized_client", error_description: "invalid empty client secret" },
      });
      const basic = `Basic ${Buffer.from(`${app.client_id}:${app.client_secret}`).toString("base64")}`;
      expect(
        (
          await token(
            { grant_type: "authorization_code", client_id: "other", code: "x" },
            { authorization: basic },
          )
        ).json.error_description,
      ).toBe("client_id in request body inconsistent with Authorization header");
      expect(
        await token({
          grant_type: "refresh_token",
          client_id: app.client_id,
          client_secret: app.client_secret,
          refresh_token: "a.b.c",
        }),
      ).toEqual({
        status: 400,
        json: { error: "unauthorized_client", error_description: "unable to parse refresh token" },
      });
      const huge = await t.app.request("http://kiln.test/login/oauth/access_token", {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: `code=${"a".repeat(70_000)}`,
      });
      expect(huge.status).toBe(413);
    });

    it("exchanges a code only with the redirect_uri it was issued for, present and equal (RFC 6749 §4.1.3)", async () => {
      const u = await t.user();
      const app = await newApp(u);
      const b = await signedIn(u);
      const back = await consent(b, authorizeUrl({ client_id: app.client_id }));
      const code = back.searchParams.get("code") ?? "";
      const exchange = {
        grant_type: "authorization_code",
        client_id: app.client_id,
        client_secret: app.client_secret,
        code,
      };
      const refused = {
        status: 400,
        json: { error: "unauthorized_client", error_description: "unexpected redirect URI" },
      };
      expect(await token(exchange)).toEqual(refused);
      expect(await token({ ...exchange, redirect_uri: "" })).toEqual(refused);
      expect(await token({ ...exchange, redirect_uri: `${REDIRECT}/` })).toEqual(refused);
      // The refusals spent nothing: the right request still gets its tokens, once.
      const tokens = await token({ ...exchange, redirect_uri: REDIRECT });
      expect(tokens.status).toBe(200);
      expect(tokens.json.access_token).toBeTruthy();
      expect((await token({ ...exchange, redirect_uri: REDIRECT })).json.error_description).toBe(
        "client is not authorized",
      );
    });

    it("maps the grant's scopes onto the token; refresh tokens stay good by default (INVALIDATE_REFRESH_TOKENS off)", async () => {
      const u = await t.user();
      const app = await newApp(u);
      const b = await signedIn(u);
      const verifier = randomBytes(32).toString("base64url");
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      const back = await consent(
        b,
        authorizeUrl({
          client_id: app.client_id,
          scope: "read:repository",
          code_challenge: challenge,
          code_challenge_method: "S256",
        }),
      );
      const exchange = {
        grant_type: "authorization_code",
        client_id: app.client_id,
        client_secret: app.client_secret,
        code: back.searchParams.get("code") ?? "",
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      };
      const tokens = await token(exchange);
      expect(tokens.status).toBe(200);
      const me = await t.app.request("http://kiln.test/api/v1/user", {
        headers: { authorization: `Bearer ${tokens.json.access_token}` },
      });
      expect(me.status).toBe(403);
      expect(((await me.json()) as { message: string }).message).toContain("read:user");
      const refresh = {
        grant_type: "refresh_token",
        client_id: app.client_id,
        client_secret: app.client_secret,
      };
      expect((await token({ ...refresh, refresh_token: tokens.json.refresh_token ?? "" })).status).toBe(200);
      expect((await token({ ...refresh, refresh_token: tokens.json.refresh_token ?? "" })).status).toBe(200);
      // An access token is not a refresh token, nor the other way round.
      expect((await token({ ...refresh, refresh_token: tokens.json.access_token ?? "" })).status).toBe(400);
      const asAccess = await t.app.request("http://kiln.test/api/v1/user", {
        headers: { authorization: `Bearer ${tokens.json.refresh_token}` },
      });
      expect(asAccess.status).toBe(401);
    });

    it("issues no tokens, by code or refresh token, to a user who may no longer sign in", async () => {
      const u = await t.user();
      const app = await newApp(u);
      const b = await signedIn(u);
      const verifier = randomBytes(32).toString("base64url");
      const challenge = createHash("sha256").update(verifier).digest("base64url");
      const url = authorizeUrl({
        client_id: app.client_id,
        scope: "read:user",
        code_challenge: challenge,
        code_challenge_method: "S256",
      });
      const first = await consent(b, url);
      const client = { client_id: app.client_id, client_secret: app.client_secret };
      const tokens = await token({
        ...client,
        grant_type: "authorization_code",
        code: first.searchParams.get("code") ?? "",
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      });
      expect(tokens.status).toBe(200);
      // A second code, issued while the account could still sign in (the grant exists: no page).
      const second = new URL((await b.get(url)).location);
      const user = await t.services.users.findByName(u.name);
      await t.services.users.adminEdit(user!, { prohibitLogin: true });
      const byCode = await token({
        ...client,
        grant_type: "authorization_code",
        code: second.searchParams.get("code") ?? "",
        redirect_uri: REDIRECT,
        code_verifier: verifier,
      });
      expect(byCode.status).toBe(400);
      expect(byCode.json).toMatchObject({
        error: "invalid_grant",
        error_description: "user is prohibited from signing in",
      });
      const byRefresh = await token({
        ...client,
        grant_type: "refresh_token",
        refresh_token: tokens.json.refresh_token ?? "",
      });
      expect(byRefresh.status).toBe(400);
      expect(byRefresh.json.error).toBe("invalid_grant");
    });

    it("ends the sessions of an account that may no longer sign in", async () => {
      const u = await t.user();
      const b = await signedIn(u);
      expect((await b.get("/user/settings/security")).status).toBe(200);
      const user = await t.services.users.findByName(u.name);
      await t.services.users.adminEdit(user!, { prohibitLogin: true });
      expect((await b.get("/user/settings/security")).status).toBe(303);
    });

    it("keeps the sign-in page's redirect on this site and rejects wrong passwords", async () => {
      const u = await t.user();
      const b = browserFor();
      const form = await b.get("/user/login?redirect_to=//evil.example/");
      expect(form.html).not.toContain("evil.example");
      const wrong = await b.post("/user/login", {
        _csrf: form.field("_csrf"),
        user_name: u.name,
        password: "nope",
      });
      expect(wrong.status).toBe(200);
      expect(wrong.html).toContain("Username or password is incorrect.");
      const ok = await b.post("/user/login", {
        _csrf: form.field("_csrf"),
        user_name: u.name,
        password: "password1",
        redirect_to: "https://evil.example/",
      });
      expect(ok.location).toBe("/");
      expect((await b.get("/user/login?redirect_to=%2Flogin%2Foauth%2Fkeys")).location).toBe(
        "/login/oauth/keys",
      );
    });
  },
);

describe.each(["ES256", "EdDSA"])("the provider with JWT_SIGNING_ALGORITHM = %s", (algorithm) => {
  it("publishes the key and signs tokens it then accepts", async () => {
    const t = await openSiteTestApp("pglite", { oauth2: { jwtSigningAlgorithm: algorithm } });
    try {
      const res = await t.app.request("http://kiln.test/login/oauth/keys");
      const { keys } = (await res.json()) as {
        keys: { kty: string; alg: string; kid: string; d?: string }[];
      };
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatchObject({ kty: algorithm === "ES256" ? "EC" : "OKP", alg: algorithm });
      expect(keys[0]?.d).toBeUndefined();
      const key = await t.services.oauth2Tokens.signingKey();
      const jwt = await key.sign({ gnt: 1, tt: 0 });
      expect(await key.verify(jwt)).toMatchObject({ gnt: 1, tt: 0 });
      expect(await key.verify(`${jwt.slice(0, -2)}xx`)).toBeUndefined();
      const wellKnown = await t.app.request("http://kiln.test/.well-known/openid-configuration");
      expect(
        ((await wellKnown.json()) as { id_token_signing_alg_values_supported: string[] })
          .id_token_signing_alg_values_supported,
      ).toEqual([algorithm]);
    } finally {
      await t.close();
    }
  });
});
