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

/** A token as Forgejo's `AccessToken`; `sha1` is the secret when it was just created, else `""`. */
export function toApiAccessToken(token: AccessToken, secret?: string): v.InferOutput<typeof api.AccessToken> {
  return {
    id: token.id,
    name: token.name,
    sha1: secret ?? "",
    token_last_eight: token.tokenLastEight,
    scopes: token.scope === "" ? [] : token.scope.split(","),
  };
}
