import { isKilnError } from "@kiln/domain";
import { avatarUrl, OAuth2Error, type Principal, type TokenRequest } from "@kiln/service";
import { parseAuthorization } from "../auth.js";
import type { AppContext, Mount } from "../env.js";
import { readForm } from "./form.js";

const NO_STORE = { "cache-control": "no-store", pragma: "no-cache" };

/**
 * The client's credentials as Forgejo's token endpoint reads them: `client_id` and
 * `client_secret` from the form, else from a Basic header (whose parts must agree with the form's).
 */
function clientCredentials(
  c: AppContext,
  form: (name: string) => string,
): { clientId: string; clientSecret: string } | OAuth2Error {
  let clientId = form("client_id");
  let clientSecret = form("client_secret");
  const header = c.req.header("authorization") ?? "";
  if ((clientId === "" || clientSecret === "") && /^basic /i.test(header)) {
    const decoded = Buffer.from(header.slice(6).trim(), "base64").toString("utf8");
    const colon = decoded.indexOf(":");
    if (colon < 0) return new OAuth2Error("invalid_request", "cannot parse basic auth header");
    const id = safeDecode(decoded.slice(0, colon));
    const secret = safeDecode(decoded.slice(colon + 1));
    if (clientId !== "" && clientId !== id) {
      return new OAuth2Error(
        "invalid_request",
        "client_id in request body inconsistent with Authorization header",
      );
    }
    if (clientSecret !== "" && clientSecret !== secret) {
      return new OAuth2Error(
        "invalid_request",
        "client_secret in request body inconsistent with Authorization header",
      );
    }
    clientId = id;
    clientSecret = secret;
  }
  return { clientId, clientSecret };
}

/** Forgejo's AccessTokenOAuth: client credentials from the body or a Basic header, then the exchange. */
async function accessToken(c: AppContext): Promise<Response> {
  const form = await readForm(c);
  const client = clientCredentials(c, form);
  if (client instanceof OAuth2Error) return tokenError(client);
  const { clientId, clientSecret } = client;
  const request: TokenRequest = {
    grantType: form("grant_type"),
    clientId,
    clientSecret,
    redirectUri: form("redirect_uri"),
    code: form("code"),
    refreshToken: form("refresh_token"),
    codeVerifier: form("code_verifier"),
  };
  const settings = c.get("settings");
  try {
    const response = await c.get("services").oauth2Tokens.exchange(request, (user) => ({
      profile: `${settings.server.rootUrl}${user.name}`,
      picture: avatarUrl(user, settings),
    }));
    return c.json(response, 200, NO_STORE);
  } catch (err) {
    if (err instanceof OAuth2Error) return tokenError(err);
    throw err;
  }
}

/** RFC 6749 §2.3.1: client credentials in Basic auth are form-urlencoded first. */
function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text.replace(/\+/g, " "));
  } catch {
    return text;
  }
}

function tokenError(err: OAuth2Error): Response {
  return new Response(JSON.stringify(err.toJSON()), {
    status: 400,
    headers: { "content-type": "application/json; charset=utf-8", ...NO_STORE },
  });
}

/**
 * RFC 7662 token introspection (Forgejo's IntrospectOAuth at `/login/oauth/introspect`): the
 * client authenticates as at the token endpoint (Basic or `client_id`/`client_secret` in the form),
 * else 401 `no valid authorization`; then `{"active": …}` for the `token` field, with Forgejo's
 * `scope`, `username`, `iss`, `sub` and `aud` (and `exp`, `iat`) when it is active.
 */
async function introspect(c: AppContext): Promise<Response> {
  const form = await readForm(c);
  const client = clientCredentials(c, form);
  const answer =
    client instanceof OAuth2Error
      ? undefined
      : await c.get("services").oauth2Tokens.introspect(client.clientId, client.clientSecret, form("token"));
  if (!answer) return c.text("no valid authorization", 401, { "www-authenticate": 'Basic realm=""' });
  return c.json(answer, 200, NO_STORE);
}

/** Forgejo's InfoOAuth: the claims of the user an OAuth2 access token belongs to. */
async function userInfo(c: AppContext): Promise<Response> {
  const unauthorized = () => c.text("no valid authorization", 401, { "www-authenticate": 'Bearer realm=""' });
  const header = c.req.header("authorization");
  if (!header) return unauthorized();
  let principal: Principal;
  try {
    const credentials = parseAuthorization(header, undefined);
    if (credentials.kind !== "token") return unauthorized();
    principal = await c.get("services").auth.authenticate(credentials);
  } catch (err) {
    if (isKilnError(err)) return unauthorized();
    throw err;
  }
  if (!principal.oauth2) return unauthorized();
  const user = principal.user;
  return c.json({
    sub: String(user.id),
    name: user.fullName || user.name,
    preferred_username: user.name,
    email: user.email,
    picture: avatarUrl(user, c.get("settings")),
  });
}

/** Forgejo's OIDCKeys: the JSON Web Key Set with the instance's public signing key. */
async function keys(c: AppContext): Promise<Response> {
  const key = await c.get("services").oauth2Tokens.signingKey();
  return c.json({ keys: [key.publicJwk] });
}

/** Forgejo's OIDCWellKnown (templates/user/auth/oidc_wellknown.tmpl). */
function wellKnown(c: AppContext): Response {
  const settings = c.get("settings");
  const root = settings.server.rootUrl;
  return c.json({
    issuer: root.replace(/\/$/, ""),
    authorization_endpoint: `${root}login/oauth/authorize`,
    token_endpoint: `${root}login/oauth/access_token`,
    jwks_uri: `${root}login/oauth/keys`,
    userinfo_endpoint: `${root}login/oauth/userinfo`,
    introspection_endpoint: `${root}login/oauth/introspect`,
    response_types_supported: ["code", "id_token"],
    id_token_signing_alg_values_supported: [settings.oauth2.jwtSigningAlgorithm],
    subject_types_supported: ["public"],
    scopes_supported: ["openid", "profile", "email", "groups"],
    claims_supported: [
      "aud",
      "exp",
      "iat",
      "iss",
      "sub",
      "name",
      "preferred_username",
      "profile",
      "picture",
      "website",
      "locale",
      "updated_at",
      "email",
      "email_verified",
    ],
    code_challenge_methods_supported: ["plain", "S256"],
    grant_types_supported: ["authorization_code", "refresh_token"],
  });
}

/** The provider's machine endpoints: token, introspection, userinfo, JWKS and the OpenID discovery document. */
export function mountOAuthEndpoints(mount: Mount): void {
  const enabled =
    (handler: (c: AppContext) => Promise<Response> | Response) =>
    (c: AppContext): Promise<Response> | Response =>
      c.get("settings").oauth2.enabled ? handler(c) : c.text("OAuth2 is disabled", 403);
  mount("post", "/login/oauth/access_token", enabled(accessToken));
  mount("post", "/login/oauth/introspect", enabled(introspect));
  mount("get", "/login/oauth/userinfo", enabled(userInfo));
  mount("post", "/login/oauth/userinfo", enabled(userInfo));
  mount("get", "/login/oauth/keys", enabled(keys));
  mount("get", "/.well-known/openid-configuration", enabled(wellKnown));
}
