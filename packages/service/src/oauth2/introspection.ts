import { oauth2Applications, oauth2Grants, users } from "@kiln/storage";
import type { JWTPayload } from "jose";
import type { ServiceContext } from "../context.js";
import { ACCESS, REFRESH, secretMatches } from "./client-auth.js";
import { signingKeyOf } from "./signing-key.js";

/** An RFC 7662 introspection answer with Forgejo's fields (`scope`, `username`, JWT claims). */
export interface Introspection {
  readonly active: boolean;
  readonly scope?: string;
  readonly username?: string;
  readonly iss?: string;
  readonly sub?: string;
  readonly aud?: readonly string[];
  readonly exp?: number;
  readonly iat?: number;
}

const INACTIVE: Introspection = { active: false };

/**
 * Forgejo's IntrospectOAuth: the client authenticates with its id and secret (undefined when it
 * cannot), then learns whether `token` — an access or refresh token of this instance — is live:
 * signed by the instance's key, unexpired, of a grant that still exists. Unlike Forgejo, a token
 * issued to another client is answered inactive (RFC 7662 §4: tell a client only about tokens
 * meant for it), and so is a refresh token already spent when refresh tokens are single-use.
 */
export async function introspectToken(
  ctx: ServiceContext,
  clientId: string,
  clientSecret: string,
  token: string,
): Promise<Introspection | undefined> {
  const app =
    clientId === "" ? undefined : await oauth2Applications.findApplicationByClientId(ctx.db, clientId);
  if (!app || !secretMatches(app, clientSecret)) return undefined;
  let claims: JWTPayload | undefined;
  try {
    claims = token === "" ? undefined : await (await signingKeyOf(ctx)).verify(token);
  } catch {
    return INACTIVE;
  }
  if (!claims || typeof claims.gnt !== "number" || (claims.tt !== ACCESS && claims.tt !== REFRESH))
    return INACTIVE;
  const grant = await oauth2Grants.findGrantById(ctx.db, claims.gnt);
  if (!grant || grant.applicationId !== app.id) return INACTIVE;
  if (claims.tt === REFRESH && ctx.settings.oauth2.invalidateRefreshTokens && claims.cnt !== grant.counter)
    return INACTIVE;
  const user = await users.findUserById(ctx.db, grant.userId);
  return {
    active: true,
    scope: grant.scope,
    ...(user ? { username: user.name } : {}),
    iss: ctx.settings.server.rootUrl.replace(/\/$/, ""),
    sub: String(grant.userId),
    aud: [app.clientId],
    ...(typeof claims.exp === "number" ? { exp: claims.exp } : {}),
    ...(typeof claims.iat === "number" ? { iat: claims.iat } : {}),
  };
}
