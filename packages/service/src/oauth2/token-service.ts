import { createHash } from "node:crypto";
import type { User } from "@kiln/domain";
import {
  type OAuth2ApplicationRecord,
  type OAuth2GrantRecord,
  oauth2Applications,
  oauth2Grants,
  users,
} from "@kiln/storage";
import { hashTokenSecret } from "../auth/token-secret.js";
import type { ServiceContext } from "../context.js";
import { ACCESS, REFRESH, secretMatches } from "./client-auth.js";
import { type Introspection, introspectToken } from "./introspection.js";
import { OAuth2Error } from "./oauth2-error.js";
import { scopeContains } from "./oauth2-scope.js";
import { containsRedirectUri } from "./redirect-uri.js";
import { type SigningKey, signingKeyOf } from "./signing-key.js";

/** A token request (`/login/oauth/access_token`), Forgejo's AccessTokenForm. */
export interface TokenRequest {
  readonly grantType: string;
  readonly clientId: string;
  readonly clientSecret: string;
  readonly redirectUri: string;
  readonly code: string;
  readonly refreshToken: string;
  readonly codeVerifier: string;
}

/** A successful token response (RFC 6749 §5.1), Forgejo's AccessTokenResponse. */
export interface AccessTokenResponse {
  readonly access_token: string;
  readonly token_type: "bearer";
  readonly expires_in: number;
  readonly refresh_token: string;
  readonly id_token?: string;
}

/** The web addresses of a user that ID tokens carry (the HTTP layer knows them). */
export interface UserUrls {
  readonly profile: string;
  readonly picture: string;
}

/**
 * The token endpoint (Forgejo's AccessTokenOAuth): exchanges authorization codes and refresh
 * tokens for signed JWTs, with Forgejo's error codes. Access and refresh tokens name their grant
 * (`gnt`), so deleting the application (and with it the grant) invalidates them.
 */
export class OAuth2TokenService {
  private keyFailureLogged = false;

  constructor(private readonly ctx: ServiceContext) {}

  async exchange(req: TokenRequest, urls: (user: User) => UserUrls): Promise<AccessTokenResponse> {
    switch (req.grantType) {
      case "authorization_code":
        return this.byCode(req, urls);
      case "refresh_token":
        return this.byRefreshToken(req, urls);
      default:
        throw new OAuth2Error(
          "unsupported_grant_type",
          "Only refresh_token or authorization_code grant type is supported",
        );
    }
  }

  /**
   * RFC 7662 introspection for an authenticated client (Forgejo's IntrospectOAuth); undefined
   * when the client's credentials are wrong.
   */
  introspect(clientId: string, clientSecret: string, token: string): Promise<Introspection | undefined> {
    return introspectToken(this.ctx, clientId, clientSecret, token);
  }

  /** The instance's signing key (its public half is the JWKS). */
  signingKey(): Promise<SigningKey> {
    return signingKeyOf(this.ctx);
  }

  /**
   * The grant and user an access token proves, or undefined (not one of ours, expired, not an
   * access token, or its grant is gone).
   */
  async resolveAccessToken(token: string): Promise<{ user: User; grant: OAuth2GrantRecord } | undefined> {
    let key: SigningKey;
    try {
      key = await signingKeyOf(this.ctx);
    } catch (err) {
      // An unusable key (SECRET_KEY changed, say) makes the string no token of ours: the caller
      // tries it as a password or access token instead of failing the request.
      if (!this.keyFailureLogged) {
        this.keyFailureLogged = true;
        this.ctx.logger.error(
          { err },
          "cannot load the OAuth2 signing key; OAuth2 access tokens are refused",
        );
      }
      return undefined;
    }
    const claims = await key.verify(token);
    if (!claims || claims.tt !== ACCESS || typeof claims.gnt !== "number") return undefined;
    return oauth2Grants.findGrantOwner(this.ctx.db, claims.gnt);
  }

  private async client(
    req: TokenRequest,
    wrongSecret: OAuth2Error["code"],
  ): Promise<OAuth2ApplicationRecord> {
    const app = await oauth2Applications.findApplicationByClientId(this.ctx.db, req.clientId);
    if (!app) throw new OAuth2Error("invalid_client", `cannot load client with client id: '${req.clientId}'`);
    if (app.confidentialClient && !secretMatches(app, req.clientSecret)) {
      throw new OAuth2Error(
        wrongSecret,
        req.clientSecret === "" ? "invalid empty client secret" : "invalid client secret",
      );
    }
    return app;
  }

  private async byCode(req: TokenRequest, urls: (user: User) => UserUrls): Promise<AccessTokenResponse> {
    const app = await this.client(req, "unauthorized_client");
    if (req.redirectUri !== "" && !containsRedirectUri(app, req.redirectUri)) {
      throw new OAuth2Error("unauthorized_client", "unexpected redirect URI");
    }
    const code = await oauth2Grants.findCode(this.ctx.db, hashTokenSecret(req.code));
    if (!code || code.validUntil.getTime() < Date.now()) {
      throw new OAuth2Error("unauthorized_client", "client is not authorized");
    }
    // RFC 6749 §4.1.3: a code issued for a redirect URI is exchanged only with that URI, present
    // and equal (Forgejo v12 exchanges it when the field is absent).
    if (code.redirectUri !== "" && req.redirectUri !== code.redirectUri) {
      throw new OAuth2Error("unauthorized_client", "unexpected redirect URI");
    }
    if (!verifierMatches(code.codeChallengeMethod, code.codeChallenge, req.codeVerifier)) {
      throw new OAuth2Error("unauthorized_client", "failed PKCE code challenge");
    }
    const grant = await oauth2Grants.findGrantById(this.ctx.db, code.grantId);
    if (!grant || grant.applicationId !== app.id) throw new OAuth2Error("invalid_grant", "invalid grant");
    await this.requireSignInAllowed(grant.userId);
    // Spend the code; a concurrent exchange of the same code loses here.
    if (!(await oauth2Grants.deleteCode(this.ctx.db, code.id))) {
      throw new OAuth2Error("unauthorized_client", "client is not authorized");
    }
    return this.respond(app, grant, urls);
  }

  private async byRefreshToken(
    req: TokenRequest,
    urls: (user: User) => UserUrls,
  ): Promise<AccessTokenResponse> {
    const app = await this.client(req, "invalid_client");
    const key = await signingKeyOf(this.ctx);
    const claims = await key.verify(req.refreshToken);
    if (!claims || claims.tt !== REFRESH || typeof claims.gnt !== "number") {
      throw new OAuth2Error("unauthorized_client", "unable to parse refresh token");
    }
    const grant = await oauth2Grants.findGrantById(this.ctx.db, claims.gnt);
    if (!grant || grant.applicationId !== app.id)
      throw new OAuth2Error("invalid_grant", "grant does not exist");
    await this.requireSignInAllowed(grant.userId);
    if (this.ctx.settings.oauth2.invalidateRefreshTokens) {
      const counter = typeof claims.cnt === "number" ? claims.cnt : 0;
      if (counter === 0 || counter !== grant.counter) throw alreadyUsed();
      // Advance the counter only from the token's value: of two uses of one token, one wins.
      const next = await oauth2Grants.increaseCounter(this.ctx.db, grant.id, counter);
      if (next === undefined) throw alreadyUsed();
      return this.respond(app, { ...grant, counter: next }, urls, false);
    }
    return this.respond(app, grant, urls);
  }

  /** A grant's user must still be allowed to sign in (active, not prohibited) to get tokens. */
  private async requireSignInAllowed(userId: number): Promise<void> {
    const user = await users.findUserById(this.ctx.db, userId);
    if (!user?.isActive || user.prohibitLogin) {
      throw new OAuth2Error("invalid_grant", "user is prohibited from signing in");
    }
  }

  private async respond(
    app: OAuth2ApplicationRecord,
    grant: OAuth2GrantRecord,
    urls: (user: User) => UserUrls,
    advance = true,
  ): Promise<AccessTokenResponse> {
    const settings = this.ctx.settings.oauth2;
    let counter = grant.counter;
    if (settings.invalidateRefreshTokens && advance) {
      counter = (await oauth2Grants.increaseCounter(this.ctx.db, grant.id)) ?? counter;
    }
    const key = await signingKeyOf(this.ctx);
    const now = Math.floor(Date.now() / 1000);
    const exp = now + settings.accessTokenExpirationTime;
    const accessToken = await key.sign({ gnt: grant.id, tt: ACCESS, iat: now, exp });
    const refreshToken = await key.sign({
      gnt: grant.id,
      tt: REFRESH,
      cnt: counter,
      iat: now,
      exp: now + settings.refreshTokenExpirationTime * 3600,
    });
    const response: AccessTokenResponse = {
      access_token: accessToken,
      token_type: "bearer",
      expires_in: settings.accessTokenExpirationTime,
      refresh_token: refreshToken,
    };
    if (!scopeContains(grant.scope, "openid")) return response;
    const user = await users.findUserById(this.ctx.db, grant.userId);
    if (!user) throw new OAuth2Error("invalid_request", "cannot find user");
    const idToken = await key.sign({
      iss: this.ctx.settings.server.rootUrl.replace(/\/$/, ""),
      sub: String(grant.userId),
      aud: [app.clientId],
      iat: now,
      exp,
      ...(grant.nonce !== "" ? { nonce: grant.nonce } : {}),
      ...(scopeContains(grant.scope, "profile") ? profileClaims(user, urls(user)) : {}),
      ...(scopeContains(grant.scope, "email") ? { email: user.email, email_verified: user.isActive } : {}),
    });
    return { ...response, id_token: idToken };
  }
}

function alreadyUsed(): OAuth2Error {
  return new OAuth2Error("unauthorized_client", "token was already used");
}

function profileClaims(user: User, urls: UserUrls): Record<string, unknown> {
  return {
    name: user.fullName || user.name,
    preferred_username: user.name,
    profile: urls.profile,
    picture: urls.picture,
    website: user.website,
    locale: user.language,
    updated_at: Math.floor(user.updatedAt.getTime() / 1000),
  };
}

/** Forgejo's ValidateCodeChallenge: S256, plain, or no challenge at all (confidential clients). */
function verifierMatches(method: string, challenge: string, verifier: string): boolean {
  switch (method) {
    case "S256":
      return createHash("sha256").update(verifier).digest("base64url") === challenge;
    case "plain":
      return verifier === challenge;
    case "":
      return true;
    default:
      return false;
  }
}
