import { PermissionDeniedError, parseScopes, UnauthorizedError, type User } from "@kiln/domain";
import { accessTokens, emails, twoFactor, users } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { grantTokenScopes } from "../oauth2/oauth2-scope.js";
import { OAuth2TokenService } from "../oauth2/token-service.js";
import { type CredentialCache, credentialCacheOf } from "./credential-cache.js";
import { verifyPassword } from "./password.js";
import type { Credentials, Principal } from "./principal.js";
import { openSecret } from "./secret-box.js";
import { hashTokenSecret } from "./token-secret.js";
import { validateTotp } from "./totp.js";
import { limitedTwoFactorCheck } from "./two-factor-service.js";
import type { WebSession } from "./web-session-service.js";

/**
 * Checks credentials the way Forgejo does (decision 8, docs/decisions.md): `token`/`Bearer` tokens; Basic
 * auth whose password is a token, or whose username is a token with an empty or `x-oauth-basic`
 * password; else, when `[service] ENABLE_BASIC_AUTHENTICATION` allows it, the account password,
 * plus a TOTP passcode for enrolled users. Throws UnauthorizedError (401) for bad credentials and
 * PermissionDeniedError (403) for accounts that may not sign in. A token resolves in one query
 * and then comes from the instance's CredentialCache; passwords are checked every time.
 */
export class AuthService {
  private readonly oauth2: OAuth2TokenService;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly cache: CredentialCache = credentialCacheOf(ctx),
  ) {
    this.oauth2 = new OAuth2TokenService(ctx);
  }

  /**
   * The web sign-in page's password check: the account, when the login (name or e-mail) and
   * password match an individual account, else undefined. The account checks are the caller's
   * next step ({@link checkAccount}); TOTP is the page's.
   */
  async checkPassword(login: string, password: string): Promise<User | undefined> {
    const user = await this.findLogin(login);
    const stored = user ? await users.getPasswordHash(this.ctx.db, user.id) : "";
    // Verify even for unknown users so that timing does not reveal which names exist.
    const ok = await verifyPassword(password, stored || DUMMY_HASH);
    return user && ok && user.type === "individual" ? user : undefined;
  }

  async authenticate(credentials: Credentials): Promise<Principal> {
    const principal = await this.resolve(credentials);
    this.checkAccount(principal.user);
    return principal;
  }

  /**
   * The principal of a web session's signed-in user, after the same account checks as every other
   * credential; null when nobody is signed in or the account may not act now (a forced password
   * change, say), so that the pages treat the visitor as anonymous. A session carries every scope,
   * as a password does: cookies have no `public-only` or scoped form.
   */
  fromSession(session: WebSession | undefined): Principal | null {
    const user = session?.user;
    if (!user) return null;
    try {
      this.checkAccount(user);
    } catch (err) {
      if (err instanceof PermissionDeniedError) return null;
      throw err;
    }
    return { user, method: "session", scopes: null };
  }

  /** Whether the user has enrolled in TOTP two-factor authentication. */
  async hasTwoFactor(user: User): Promise<boolean> {
    return (await twoFactor.findTwoFactor(this.ctx.db, user.id)) !== undefined;
  }

  private async resolve(credentials: Credentials): Promise<Principal> {
    if (credentials.kind === "token") {
      return (await this.byToken(credentials.token)) ?? unauthorized("invalid access token");
    }
    const { username, password } = credentials;
    if (password === "" || password === "x-oauth-basic") {
      return (await this.byToken(username)) ?? unauthorized("invalid access token");
    }
    const asToken = await this.byToken(password);
    if (asToken) return asToken;
    if (!this.ctx.settings.service.enableBasicAuthentication) {
      return unauthorized("basic authentication with a password is disabled; use an access token");
    }
    return this.byPassword(username, password, credentials.otp);
  }

  private async byToken(secret: string): Promise<Principal | null> {
    if (secret === "") return null;
    // A JWT (it has dots; access token secrets are hex): an OAuth2 access token, as Forgejo tells them apart.
    if (secret.includes(".")) return this.byOAuth2Token(secret);
    const hash = hashTokenSecret(secret);
    const cached = this.cache.get(hash);
    if (cached) return cached.principal;
    const stamp = this.cache.stamp();
    const found = await accessTokens.findTokenOwnerByHash(this.ctx.db, hash);
    if (!found) return null;
    const principal: Principal = { user: found.user, method: "token", scopes: parseScopes(found.scope) };
    this.cache.set(hash, { principal, tokenId: found.tokenId }, stamp);
    return principal;
  }

  /**
   * An OAuth2 access token (a JWT this instance signed, naming a grant that still exists), with
   * the API scopes its grant maps to (Forgejo's grantAdditionalScopes). Not cached: the grant is
   * read on every request, so deleting the application takes effect at once.
   */
  private async byOAuth2Token(token: string): Promise<Principal | null> {
    const found = await this.oauth2.resolveAccessToken(token);
    if (!found) return null;
    return {
      user: found.user,
      method: "token",
      scopes: grantTokenScopes(found.grant.scope),
      oauth2: { grantId: found.grant.id, scope: found.grant.scope },
    };
  }

  private async byPassword(login: string, password: string, otp: string | undefined): Promise<Principal> {
    const user = await this.checkPassword(login, password);
    if (!user) return unauthorized("wrong username or password");
    const enrolment = await twoFactor.findTwoFactor(this.ctx.db, user.id);
    if (enrolment) {
      const secret = openSecret(this.ctx.settings.security.secretKey, enrolment.secret);
      const ok =
        otp !== undefined &&
        otp !== "" &&
        (await limitedTwoFactorCheck(
          this.ctx.db,
          user.id,
          async () => validateTotp(secret, otp) && twoFactor.markPasscodeUsed(this.ctx.db, user.id, otp),
        ));
      if (!ok) return unauthorized("invalid provided OTP");
    }
    return { user, method: "password", scopes: null };
  }

  private async findLogin(login: string): Promise<User | undefined> {
    const byName = await users.findUserByName(this.ctx.db, login);
    if (byName || !login.includes("@")) return byName;
    const address = await emails.findEmail(this.ctx.db, login);
    return address ? users.findUserById(this.ctx.db, address.userId) : undefined;
  }

  /** Forgejo's account checks: prohibited or inactive accounts and forced password changes get 403. */
  checkAccount(user: User): void {
    if (!user.isActive || user.prohibitLogin) {
      throw new PermissionDeniedError(
        "This account is prohibited from signing in, please contact your site administrator.",
      );
    }
    if (user.mustChangePassword) {
      throw new PermissionDeniedError(
        `You must change your password. Change it at: ${this.ctx.settings.server.rootUrl}user/change_password`,
      );
    }
  }
}

/** A well-formed hash of a random password, so unknown users cost as much as known ones. */
const DUMMY_HASH = "$scrypt$ln=15,r=8,p=1$c2FsdHNhbHRzYWx0c2FsdA$0ZbP5YT4SJjwkFnTJGJ7e4ZiTrSBzDHqbJ2DKOImBhk";

function unauthorized(message: string): never {
  throw new UnauthorizedError(message);
}
