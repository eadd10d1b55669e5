import * as oidc from "openid-client";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  api,
  createUser,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";
import { WebBrowser } from "./web-browser.js";

const REDIRECT = "http://127.0.0.1:9/callback";

/**
 * openid-client, a client nobody here wrote, against kiln web: it discovers the provider, runs the
 * authorization-code flow with PKCE and asks the introspection endpoint the discovery document
 * names about the tokens it got, authenticating as a confidential client with its secret in the
 * form (the library's default) and with HTTP Basic.
 */
describe.each(E2E_DATABASES)("OAuth2 token introspection with openid-client (%s)", (name) => {
  const { env, dispose } = databaseEnv(name);
  const work = tempWorkPath();
  let server: ServerProcess;
  let issuer: URL;
  let client: { id: string; secret: string };
  let user: string;

  /** The issuer is `http://localhost:<port>`; requests go to the loopback address the server listens on. */
  const loopback: oidc.CustomFetch = (url, options) =>
    fetch(url.replace(`//localhost:${server.port}`, `//127.0.0.1:${server.port}`), options as RequestInit);
  const configure = (auth?: oidc.ClientAuth) =>
    oidc.discovery(issuer, client.id, client.secret, auth, {
      execute: [oidc.allowInsecureRequests],
      [oidc.customFetch]: loopback,
    });

  beforeAll(async () => {
    server = await startServer(work, env);
    issuer = new URL(`http://localhost:${server.port}`);
    const alice = await createUser(server, work, "alice", env);
    user = alice.username;
    const created = await api(server.url, "POST", "/user/applications/oauth2", {
      token: alice.token,
      body: { name: "resource-server", redirect_uris: [REDIRECT], confidential_client: true },
    });
    expect(created.status).toBe(201);
    client = { id: created.json.client_id as string, secret: created.json.client_secret as string };
  }, 300_000);
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("introspects the tokens of a code flow, by form and by Basic client authentication", async () => {
    const config = await configure();
    expect(config.serverMetadata().introspection_endpoint).toBe(`${issuer.origin}/login/oauth/introspect`);

    const verifier = oidc.randomPKCECodeVerifier();
    const state = oidc.randomState();
    const authorize = oidc.buildAuthorizationUrl(config, {
      redirect_uri: REDIRECT,
      scope: "openid profile",
      code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
    });
    const browser = new WebBrowser(server.url);
    const login = await browser.get("/user/login");
    const signedIn = await browser.post("/user/login", {
      _csrf: login.field("_csrf"),
      user_name: user,
      password: "password1",
    });
    expect(signedIn.status).toBe(303);
    const consent = await browser.get(`${authorize.pathname}${authorize.search}`);
    expect(consent.status).toBe(200);
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
    const tokens = await oidc.authorizationCodeGrant(config, new URL(granted.location), {
      pkceCodeVerifier: verifier,
      expectedState: state,
    });
    expect(tokens.claims()?.preferred_username).toBe(user);

    for (const config of [await configure(), await configure(oidc.ClientSecretBasic(client.secret))]) {
      const access = await oidc.tokenIntrospection(config, tokens.access_token);
      expect(access).toMatchObject({
        active: true,
        scope: "openid profile",
        username: user,
        iss: issuer.origin,
        aud: [client.id],
      });
      expect(access.exp).toBeGreaterThan(Date.now() / 1000);
      const refresh = await oidc.tokenIntrospection(config, tokens.refresh_token ?? "", {
        token_type_hint: "refresh_token",
      });
      expect(refresh.active).toBe(true);
      expect(await oidc.tokenIntrospection(config, "not-a-token")).toEqual({ active: false });
    }

    // A client with a wrong secret is refused (401), which openid-client reports as an error.
    const wrong = await oidc.discovery(issuer, client.id, "gto_wrong", undefined, {
      execute: [oidc.allowInsecureRequests],
      [oidc.customFetch]: loopback,
    });
    await expect(oidc.tokenIntrospection(wrong, tokens.access_token)).rejects.toThrow();
  });
});
