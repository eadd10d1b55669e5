import {
  type AccessToken,
  BadRequestError,
  formatScopes,
  InvalidScopeError,
  NotFoundError,
  type Paged,
  type PageRequest,
  parseScopes,
  type User,
} from "@kiln/domain";
import { accessTokens, isUniqueViolation } from "@kiln/storage";
import { type CredentialCache, credentialCacheOf } from "../auth/credential-cache.js";
import { generateTokenSecret, hashTokenSecret } from "../auth/token-secret.js";
import type { ServiceContext } from "../context.js";

/** A token just created, with its secret: the only moment the secret exists outside the client. */
export interface CreatedAccessToken {
  readonly token: AccessToken;
  readonly secret: string;
}

/**
 * Personal access tokens (`/users/{username}/tokens`), with Forgejo's errors. A deleted token
 * leaves the instance's credential cache at once.
 */
export class AccessTokenService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly cache: CredentialCache = credentialCacheOf(ctx),
  ) {}

  async list(user: User, page: PageRequest): Promise<Paged<AccessToken>> {
    return accessTokens.listAccessTokens(this.ctx.db, user.id, page);
  }

  /**
   * Creates a token. 400 when the owner already has a token of that name, when a scope is unknown,
   * or when no scope is given — Forgejo's statuses and messages.
   */
  async create(user: User, name: string, scopes: readonly string[]): Promise<CreatedAccessToken> {
    let scope: string;
    try {
      scope = formatScopes(parseScopes(scopes));
    } catch (err) {
      if (err instanceof InvalidScopeError) {
        throw new BadRequestError(`invalid access token scope provided: ${err.message}`);
      }
      throw err;
    }
    if (await accessTokens.findAccessToken(this.ctx.db, user.id, { name })) throw duplicateName();
    if (scope === "") throw new BadRequestError("access token must have a scope");
    const secret = generateTokenSecret();
    try {
      const token = await accessTokens.insertAccessToken(this.ctx.db, {
        userId: user.id,
        name,
        tokenHash: hashTokenSecret(secret),
        tokenLastEight: secret.slice(-8),
        scope,
      });
      return { token, secret };
    } catch (err) {
      if (isUniqueViolation(err, "access_token_user_name_key")) throw duplicateName();
      throw err;
    }
  }

  /** Deletes a token named by its numeric id or, failing that, by its name. */
  async delete(user: User, idOrName: string): Promise<void> {
    const id = /^\d+$/.test(idOrName) ? Number(idOrName) : 0;
    const token =
      (id > 0 ? await accessTokens.findAccessToken(this.ctx.db, user.id, { id }) : undefined) ??
      (await accessTokens.findAccessToken(this.ctx.db, user.id, { name: idOrName }));
    if (!token || !(await accessTokens.deleteAccessToken(this.ctx.db, user.id, token.id))) {
      throw new NotFoundError(`access token does not exist [name: ${idOrName}]`);
    }
    this.cache.forgetToken(token.id);
  }
}

function duplicateName(): BadRequestError {
  return new BadRequestError("access token name has been used already");
}
