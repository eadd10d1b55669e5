import { InvalidScopeError, parseScopes, type TokenScopes } from "@kiln/domain";

/** The OpenID Connect scopes: they choose claims, not API access. */
export const OIDC_SCOPES: readonly string[] = ["openid", "profile", "email", "groups"];

/** Whether a space-separated grant scope contains `name`. */
export function scopeContains(scope: string, name: string): boolean {
  return scope.split(" ").includes(name);
}

/**
 * The API scopes an OAuth2 access token carries, as Forgejo's grantAdditionalScopes maps them:
 * the grant's scopes that are access token scopes (`read:repository`, `public-only`, `all`, …);
 * OIDC and unknown scopes are left out, and when nothing is left the token has `all`.
 */
export function grantTokenScopes(scope: string): TokenScopes {
  const kept: string[] = [];
  for (const name of scope.split(" ")) {
    if (name === "" || name === "sudo" || OIDC_SCOPES.includes(name)) continue;
    try {
      parseScopes([name]);
      kept.push(name);
    } catch (err) {
      if (!(err instanceof InvalidScopeError)) throw err;
    }
  }
  return parseScopes(kept.length > 0 ? kept : ["all"]);
}
