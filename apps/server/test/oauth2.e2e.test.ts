import { createHash, createPublicKey, randomBytes, verify } from "node:crypto";
import { currentTotp } from "@kiln/service";
import { dropPostgresSchema, testPostgresUrl } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { api, createUser, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";
import { WebBrowser } from "./web-browser.js";

const schema = `kiln_e2e_oauth_${randomBytes(5).toString("hex")}`;
const SETUPS = [
  { name: "the embedded database", env: {} as Record<string, string> },
  { name: "PostgreSQL", env: { DATABASE_URL: testPostgresUrl(), KILN__DATABASE__SCHEMA: schema } },
];
const OAUTH_ENV = { KILN__OAUTH2__INVALIDATE_REFRESH_TOKENS: "true" };
const REDIRECT = "http://127.0.0.1:9/callback";

type Json = Record<string, unknown>;

/** Posts to the token endpoint, form-encoded or JSON. */
async function tokenRequest(
  base: string,
  fields: Readonly<Record<string, string>>,
  options: { json?: boolean; basic?: readonly [string, string] } = {},
): Promise<{ status: number; json: Json }> {
  const headers: Record<string, string> = {
    "content-type": options.json ? "application/json" : "application/x-www-form-urlencoded",
  };
  if (options.basic)
    headers.authorization = `Basic ${Buffer.from(options.basic.join(":")).toString("base64")}`;
  const res = await fetch(`${base}/login/oauth/access_token`, {
    method: "POST",
    headers,
    body: options.json ? JSON.stringify(fields) : new URLSearchParams(fields).toString(),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

async function apiUser(base: string, authorization: string): Promise<{ status: number; json: Json }> {
  const res = await fetch(`${base}/api/v1/user`, { headers: { authorization } });
  return { status: res.status, json: (await res.json()) as Json };
}

/** Signs in through the HTML form; returns the page the form answered with. */
async function signIn(browser: WebBrowser, user: string, redirectTo = "") {
  const form = await browser.get(
    `/user/login${redirectTo ? `?redirect_to=${encodeURIComponent(redirectTo)}` : ""}`,
  );
  expect(form.status).toBe(200);
  return browser.post("/user/login", {
    _csrf: form.field("_csrf"),
    user_name: user,
    password: "password1",
    ...(redirectTo ? { redirect_to: form.field("redirect_to") } : {}),
  });
}

async function signOut(browser: WebBrowser) {
  const page = await browser.get("/user/settings/security");
  const out = await browser.post("/user/logout", { _csrf: page.field("_csrf") });
  expect(out.status).toBe(303);
}

function claimsOf(jwt: string): Json {
  return JSON.parse(Buffer.from(jwt.split(".")[1] ?? "", "base64url").toString("utf8")) as Json;
}

describe.each(SETUPS)("the OAuth2 provider and the sign-in pages, kiln web on $name", ({ env }) => {
  const work = tempWorkPath();
  let server: ServerProcess;
  beforeAll(async () => {
    server = await startServer(work, { ...env, ...OAUTH_ENV });
  });
  afterAll(async () => {
    server?.signal("SIGTERM");
    await server?.exited;
    if (env.DATABASE_URL) await dropPostgresSchema(schema);
  });

  it("completes an authorization-code flow with PKCE, uses and refreshes the token, refuses misuse", async () => {
    const alice = await createUser(server, work, "alice", env);
    const created = await api(server.url, "POST", "/user/applications/oauth2", {
      token: alice.token,
      body: {
        name: "cli",
        redirect_uris: [REDIRECT, "http://127.0.0.1:9/other"],
        confidential_client: false,
      },
    });
    expect(created.status).toBe(201);
    const clientId = created.json.client_id as string;

    const verifier = randomBytes(32).toString("base64url");
    const challenge = createHash("sha256").update(verifier).digest("base64url");
    const state = randomBytes(8).toString("hex");
    const authorize = `/login/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      state,
      scope: "openid profile email",
      nonce: "n-0S6_WzA2Mj",
      code_challenge: challenge,
      code_challenge_method: "S256",
    })}`;

    // Not signed in: the authorization endpoint sends the browser to the sign-in page and back.
    const browser = new WebBrowser(server.url);
    const toLogin = await browser.get(authorize);
    expect(toLogin.status).toBe(303);
    expect(toLogin.location).toBe(`/user/login?redirect_to=${encodeURIComponent(authorize)}`);

    // A post without the form's CSRF token is refused.
    await browser.get("/user/login");
    const forged = await browser.post("/user/login", {
      user_name: "alice",
      password: "password1",
      _csrf: "x",
    });
    expect(forged.status).toBe(400);

    const signedIn = await signIn(browser, "alice", authorize);
    expect(signedIn.status).toBe(303);
    expect(signedIn.location).toBe(authorize);
    const cookie = signedIn.headers.get("set-cookie") ?? "";
    expect(cookie).toMatch(/HttpOnly/i);
    expect(cookie).toMatch(/SameSite=Lax/i);

    const consent = await browser.get(signedIn.location);
    expect(consent.status).toBe(200);
    expect(consent.html).toContain("cli");
    const granted = await browser.post("/login/oauth/grant", {
      _csrf: consent.field("_csrf"),
      request_id: consent.field("request_id"),
      client_id: consent.field("client_id"),
      state: consent.field("state"),
      scope: consent.field("scope"),
      nonce: consent.field("nonce"),
      redirect_uri: consent.field("redirect_uri"),
      granted: "true",
    });
    expect(granted.status).toBe(303);
    const back = new URL(granted.location);
    expect(`${back.origin}${back.pathname}`).toBe(REDIRECT);
    expect(back.searchParams.get("state")).toBe(state);
    const code = back.searchParams.get("code") ?? "";
    expect(code).not.toBe("");

    const exchange = { grant_type: "authorization_code", client_id: clientId, code, redirect_uri: REDIRECT };
    const wrongVerifier = await tokenRequest(server.url, { ...exchange, code_verifier: `${verifier}x` });
    expect(wrongVerifier).toEqual({
      status: 400,
      json: { error: "unauthorized_client", error_description: "failed PKCE code challenge" },
    });
    const wrongRedirect = await tokenRequest(server.url, {
      ...exchange,
      redirect_uri: "http://127.0.0.1:9/other",
      code_verifier: verifier,
    });
    expect(wrongRedirect).toEqual({
      status: 400,
      json: { error: "unauthorized_client", error_description: "unexpected redirect URI" },
    });
    const unregistered = await tokenRequest(server.url, {
      ...exchange,
      redirect_uri: "https://evil.example/cb",
      code_verifier: verifier,
    });
    expect(unregistered.json.error).toBe("unauthorized_client");

    const tokens = await tokenRequest(server.url, { ...exchange, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(tokens.json).toMatchObject({ token_type: "bearer", expires_in: 3600 });
    const accessToken = tokens.json.access_token as string;
    const refreshToken = tokens.json.refresh_token as string;

    const reused = await tokenRequest(server.url, { ...exchange, code_verifier: verifier });
    expect(reused).toEqual({
      status: 400,
      json: { error: "unauthorized_client", error_description: "client is not authorized" },
    });

    // The access token works on the API as Bearer and as `token`.
    expect(await apiUser(server.url, `Bearer ${accessToken}`)).toMatchObject({
      status: 200,
      json: { login: "alice" },
    });
    expect((await apiUser(server.url, `token ${accessToken}`)).status).toBe(200);

    // The ID token: signed by the key the JWKS publishes, for this client, with the nonce and claims.
    const idToken = tokens.json.id_token as string;
    const keys = (await (await fetch(`${server.url}/login/oauth/keys`)).json()) as { keys: Json[] };
    const [header = "", payload = "", signature = ""] = idToken.split(".");
    const kid = (JSON.parse(Buffer.from(header, "base64url").toString()) as Json).kid;
    const jwk = keys.keys.find((k) => k.kid === kid);
    expect(jwk).toMatchObject({ kty: "RSA", alg: "RS256", use: "sig" });
    const publicKey = createPublicKey({ key: jwk as never, format: "jwk" });
    expect(
      verify(
        "RSA-SHA256",
        Buffer.from(`${header}.${payload}`),
        publicKey,
        Buffer.from(signature, "base64url"),
      ),
    ).toBe(true);
    expect(claimsOf(idToken)).toMatchObject({
      iss: `http://localhost:${server.port}`,
      sub: String((await apiUser(server.url, `token ${alice.token}`)).json.id),
      aud: [clientId],
      nonce: "n-0S6_WzA2Mj",
      preferred_username: "alice",
      email: "alice@example.com",
    });
    const discovery = (await (await fetch(`${server.url}/.well-known/openid-configuration`)).json()) as Json;
    expect(discovery).toMatchObject({
      issuer: `http://localhost:${server.port}`,
      code_challenge_methods_supported: ["plain", "S256"],
    });

    const info = await fetch(`${server.url}/login/oauth/userinfo`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    expect(info.status).toBe(200);
    expect(await info.json()).toMatchObject({ preferred_username: "alice", email: "alice@example.com" });
    const noInfo = await fetch(`${server.url}/login/oauth/userinfo`, {
      headers: { authorization: `token ${alice.token}` },
    });
    expect(noInfo.status).toBe(401);

    // Refresh (a JSON body this time); with INVALIDATE_REFRESH_TOKENS the old refresh token is spent.
    const refreshed = await tokenRequest(
      server.url,
      { grant_type: "refresh_token", client_id: clientId, refresh_token: refreshToken },
      { json: true },
    );
    expect(refreshed.status).toBe(200);
    const newAccess = refreshed.json.access_token as string;
    expect(await apiUser(server.url, `Bearer ${newAccess}`)).toMatchObject({
      status: 200,
      json: { login: "alice" },
    });
    const again = await tokenRequest(server.url, {
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: refreshToken,
    });
    expect(again).toEqual({
      status: 400,
      json: { error: "unauthorized_client", error_description: "token was already used" },
    });
    const next = await tokenRequest(server.url, {
      grant_type: "refresh_token",
      client_id: clientId,
      refresh_token: refreshed.json.refresh_token as string,
    });
    expect(next.status).toBe(200);

    // Deleting the application revokes its tokens.
    const removed = await api(server.url, "DELETE", `/user/applications/oauth2/${created.json.id}`, {
      token: alice.token,
    });
    expect(removed.status).toBe(204);
    expect((await apiUser(server.url, `Bearer ${newAccess}`)).status).toBe(401);
  });

  it("confidential clients authenticate with Basic or body credentials; a wrong secret is refused", async () => {
    const carol = await createUser(server, work, "carol", env);
    const created = await api(server.url, "POST", "/user/applications/oauth2", {
      token: carol.token,
      body: { name: "web app", redirect_uris: [REDIRECT], confidential_client: true },
    });
    const clientId = created.json.client_id as string;
    const secret = created.json.client_secret as string;
    const browser = new WebBrowser(server.url);
    const authorize = `/login/oauth/authorize?${new URLSearchParams({
      response_type: "code",
      client_id: clientId,
      redirect_uri: REDIRECT,
      state: "s1",
      scope: "read:user",
    })}`;
    await signIn(browser, "carol");
    const consent = await browser.get(authorize);
    const granted = await browser.post("/login/oauth/grant", {
      _csrf: consent.field("_csrf"),
      request_id: consent.field("request_id"),
      client_id: clientId,
      state: "s1",
      scope: "read:user",
      nonce: "",
      redirect_uri: REDIRECT,
      granted: "true",
    });
    const code = new URL(granted.location).searchParams.get("code") ?? "";
    const fields = { grant_type: "authorization_code", code, redirect_uri: REDIRECT };
    const wrong = await tokenRequest(server.url, fields, { basic: [clientId, `${secret}x`] });
    expect(wrong).toEqual({
      status: 400,
      json: { error: "unauthorized_client", error_description: "invalid client secret" },
    });
    const ok = await tokenRequest(server.url, fields, { basic: [clientId, secret] });
    expect(ok.status).toBe(200);
    expect(ok.json.id_token).toBeUndefined();
    // The grant's scope `read:user` limits the token: reading the user works, writing is 403.
    const bearer = `Bearer ${ok.json.access_token as string}`;
    expect((await apiUser(server.url, bearer)).status).toBe(200);
    const write = await fetch(`${server.url}/api/v1/user/repos`, {
      method: "POST",
      headers: { authorization: bearer, "content-type": "application/json" },
      body: JSON.stringify({ name: "nope" }),
    });
    expect(write.status).toBe(403);

    // Already granted: a confidential client gets a code without the consent page (Forgejo).
    const direct = await browser.get(authorize);
    expect(direct.status).toBe(303);
    expect(new URL(direct.location).searchParams.get("code")).toBeTruthy();
  });

  it("enrols TOTP, signs in with a passcode, then with a recovery code exactly once", async () => {
    const bob = await createUser(server, work, "bob", env);
    const browser = new WebBrowser(server.url);
    expect((await signIn(browser, "bob")).status).toBe(303);
    const enrol = await browser.get("/user/settings/security/two_factor/enroll");
    expect(enrol.status).toBe(200);
    const secret = enrol.text("secret");
    expect(enrol.text("otpauth")).toContain(`secret=${secret}`);
    const wrong = await browser.post("/user/settings/security/two_factor/enroll", {
      _csrf: enrol.field("_csrf"),
      passcode: "000000" === currentTotp(secret) ? "111111" : "000000",
    });
    expect(wrong.status).toBe(422);
    const secret2 = wrong.text("secret");
    const done = await browser.post("/user/settings/security/two_factor/enroll", {
      _csrf: wrong.field("_csrf"),
      passcode: currentTotp(secret2),
    });
    expect(done.status).toBe(200);
    const codes = [...done.html.matchAll(/<code>([a-z2-7]{5}-[a-z2-7]{5})<\/code>/g)].map((m) => m[1] ?? "");
    expect(codes).toHaveLength(10);
    await signOut(browser);

    // The password alone is not enough any more: the TOTP step follows.
    const step = await signIn(browser, "bob");
    expect(step.location).toBe("/user/two_factor");
    const totpPage = await browser.get("/user/two_factor");
    const badCode = await browser.post("/user/two_factor", {
      _csrf: totpPage.field("_csrf"),
      passcode: "12345",
    });
    expect(badCode.status).toBe(401);
    const passcode = currentTotp(secret2, Date.now() + 30_000);
    const withPasscode = await browser.post("/user/two_factor", { _csrf: totpPage.field("_csrf"), passcode });
    expect(withPasscode.status).toBe(303);
    const security = await browser.get("/user/settings/security");
    expect(security.html).toContain("Signed in as <strong>bob</strong>");
    expect(security.html).toContain("10 recovery codes left");
    await signOut(browser);

    const recovery = codes[0] ?? "";
    await signIn(browser, "bob");
    const page2 = await browser.get("/user/two_factor");
    const withRecovery = await browser.post("/user/two_factor/scratch", {
      _csrf: page2.field("_csrf"),
      token: recovery,
    });
    expect(withRecovery.status).toBe(303);
    expect((await browser.get("/user/settings/security")).html).toContain("9 recovery codes left");
    await signOut(browser);

    await signIn(browser, "bob");
    const page3 = await browser.get("/user/two_factor");
    const spent = await browser.post("/user/two_factor/scratch", {
      _csrf: page3.field("_csrf"),
      token: recovery,
    });
    expect(spent.status).toBe(401);
    expect((await browser.get("/user/settings/security")).status).toBe(303);

    // X-Forgejo-OTP on Basic auth takes passcodes, never recovery codes (Forgejo's scratch token neither).
    const basic = `Basic ${Buffer.from("bob:password1").toString("base64")}`;
    const withRecoveryHeader = await fetch(`${server.url}/api/v1/user`, {
      headers: { authorization: basic, "x-forgejo-otp": codes[1] ?? "" },
    });
    expect(withRecoveryHeader.status).toBe(401);
    const withOtp = await fetch(`${server.url}/api/v1/user`, {
      headers: { authorization: basic, "x-forgejo-otp": currentTotp(secret2, Date.now() - 30_000) },
    });
    expect(withOtp.status).toBe(200);
    expect(bob.username).toBe("bob");
  });

  it("keeps sessions across a restart and ends them on sign-out", async () => {
    await createUser(server, work, "dave", env);
    const browser = new WebBrowser(server.url);
    await signIn(browser, "dave");
    expect((await browser.get("/user/settings/security")).status).toBe(200);
    server.signal("SIGTERM");
    await server.exited;
    server = await startServer(work, { ...env, ...OAUTH_ENV });
    browser.base = server.url;
    const after = await browser.get("/user/settings/security");
    expect(after.status).toBe(200);
    expect(after.html).toContain("Signed in as <strong>dave</strong>");
    const stolen = browser.cookieHeader();
    await signOut(browser);
    const replay = await fetch(`${server.url}/user/settings/security`, {
      headers: { cookie: stolen },
      redirect: "manual",
    });
    expect(replay.status).toBe(303);
  });
});
