import type { AccessToken, api, EmailAddress, User } from "@kiln/domain";
import type * as v from "valibot";

/** An e-mail address as Forgejo's `Email`. */
export function toApiEmail(email: EmailAddress, user: User): v.InferOutput<typeof api.Email> {
  return {
    email: email.email,
    verified: email.isActivated,
    primary: email.isPrimary,
    user_id: user.id,
    username: user.name,
  };
}

/** A token as Forgejo's `AccessToken`; the secret (`sha1`) only when it was just created. */
export function toApiAccessToken(token: AccessToken, secret?: string): v.InferOutput<typeof api.AccessToken> {
  return {
    id: token.id,
    name: token.name,
    ...(secret !== undefined ? { sha1: secret } : {}),
    token_last_eight: token.tokenLastEight,
    scopes: token.scope === "" ? [] : token.scope.split(","),
  };
}
