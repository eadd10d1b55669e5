import type { TokenScopes, User } from "@kiln/domain";

/** Who is making a request, and how they proved it. */
export interface Principal {
  readonly user: User;
  /**
   * `token`: an access token (header or Basic); `password`: Basic auth with the account password;
   * `session`: a signed-in web session (the sign-in page checked the password and TOTP).
   */
  readonly method: "token" | "password" | "session";
  /** The token's scopes; null when a password or a web session was used, which carry every scope. */
  readonly scopes: TokenScopes | null;
  /** Set when the token is an OAuth2 access token: its grant and the grant's scope (space-separated). */
  readonly oauth2?: { readonly grantId: number; readonly scope: string };
}

/** Credentials as presented by a client, before they are checked. */
export type Credentials =
  | { readonly kind: "token"; readonly token: string }
  | { readonly kind: "basic"; readonly username: string; readonly password: string; readonly otp?: string };
