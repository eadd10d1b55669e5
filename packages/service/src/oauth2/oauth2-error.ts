/**
 * An OAuth2 error response (RFC 6749 §5.2), as Forgejo answers it from the token endpoint: status
 * 400 and `{error, error_description}`.
 */
export class OAuth2Error extends Error {
  constructor(
    readonly code:
      | "invalid_request"
      | "invalid_client"
      | "invalid_grant"
      | "unauthorized_client"
      | "unsupported_grant_type"
      | "invalid_scope",
    readonly description: string,
  ) {
    super(`${code}: ${description}`);
    this.name = "OAuth2Error";
  }

  toJSON(): { error: string; error_description: string } {
    return { error: this.code, error_description: this.description };
  }
}

/** An error of the authorization endpoint (RFC 6749 §4.1.2.1): a redirect back to the client, or a page. */
export interface AuthorizeError {
  readonly code:
    | "invalid_request"
    | "unauthorized_client"
    | "access_denied"
    | "unsupported_response_type"
    | "invalid_scope"
    | "server_error";
  readonly description: string;
  readonly state: string;
}
