import type { User } from "@kiln/domain";
import { type OAuth2ApplicationRecord, oauth2Applications, oauth2Grants, users } from "@kiln/storage";
import { hashTokenSecret } from "../auth/token-secret.js";
import type { ServiceContext } from "../context.js";
import { generateAuthorizationCode } from "./client-secret.js";
import type { AuthorizeError } from "./oauth2-error.js";
import { codeRedirect, containsRedirectUri, errorRedirect } from "./redirect-uri.js";

/** An authorization request (`/login/oauth/authorize`), Forgejo's AuthorizationForm. */
export interface AuthorizeRequest {
  readonly responseType: string;
  readonly clientId: string;
  readonly redirectUri: string;
  readonly state: string;
  readonly scope: string;
  readonly nonce: string;
  readonly codeChallenge: string;
  readonly codeChallengeMethod: string;
}

/** What the authorization endpoint does next. */
export type AuthorizeOutcome =
  /** Redirect the browser (to the client: with a code or an error). */
  | { readonly kind: "redirect"; readonly location: string }
  /** An error page (400): the client or its redirect URI cannot be trusted with a redirect. */
  | { readonly kind: "error"; readonly error: AuthorizeError }
  /** Ask the user: the consent page, for this application and request. */
  | {
      readonly kind: "consent";
      readonly application: OAuth2ApplicationRecord;
      readonly owner: User | undefined;
      readonly request: AuthorizeRequest;
    };

/** How long an authorization code stays good (Forgejo: until exchanged; RFC 6749 advises ≤ 10 min). */
const CODE_LIFETIME_MS = 10 * 60 * 1000;

/**
 * The authorization endpoint and the consent (Forgejo's AuthorizeOAuth and GrantApplicationOAuth):
 * checks the client, its redirect URI and PKCE, remembers consent in a grant, and issues
 * single-use authorization codes bound to the redirect URI and the PKCE challenge.
 */
export class OAuth2Authorizer {
  constructor(private readonly ctx: ServiceContext) {}

  async authorize(user: User, req: AuthorizeRequest): Promise<AuthorizeOutcome> {
    const state = req.state;
    if (req.clientId === "" || req.redirectUri === "") {
      return fail("invalid_request", "client_id and redirect_uri are required", state);
    }
    const app = await oauth2Applications.findApplicationByClientId(this.ctx.db, req.clientId);
    if (!app) return fail("unauthorized_client", "Client ID not registered", state);
    if (!containsRedirectUri(app, req.redirectUri)) {
      return fail("invalid_request", "Unregistered Redirect URI", state);
    }
    const back = (code: AuthorizeError["code"], description: string): AuthorizeOutcome => ({
      kind: "redirect",
      location: errorRedirect(req.redirectUri, { code, description, state }),
    });
    if (req.responseType !== "code")
      return back("unsupported_response_type", "Only code response type is supported.");
    if (req.codeChallengeMethod === "" && req.codeChallenge !== "") {
      return back("invalid_request", "unsupported code challenge method");
    }
    if (req.codeChallengeMethod !== "" && !["S256", "plain"].includes(req.codeChallengeMethod)) {
      return back("invalid_request", "unsupported code challenge method");
    }
    if (req.codeChallengeMethod !== "" && !/^[A-Za-z0-9\-._~]{43,128}$/.test(req.codeChallenge)) {
      return back("invalid_request", "invalid code challenge");
    }
    if (req.codeChallengeMethod === "" && !app.confidentialClient) {
      return back("invalid_request", "PKCE is required for public clients");
    }
    const grant = await oauth2Grants.findGrant(this.ctx.db, app.id, user.id);
    // A confidential client the user already granted gets a code at once (RFC 6749 §10.2: public clients always ask).
    if (app.confidentialClient && grant) {
      if (req.nonce !== "") await oauth2Grants.setNonce(this.ctx.db, grant.id, req.nonce);
      return { kind: "redirect", location: await this.issueCode(grant.id, req) };
    }
    const owner = await users.findUserById(this.ctx.db, app.uid);
    return { kind: "consent", application: app, owner, request: req };
  }

  /** The user's answer on the consent page, for the request the page showed. */
  async grant(user: User, req: AuthorizeRequest, granted: boolean): Promise<string> {
    const state = req.state;
    if (!granted) {
      return errorRedirect(req.redirectUri, {
        code: "access_denied",
        description: "the request is denied",
        state,
      });
    }
    const app = await oauth2Applications.findApplicationByClientId(this.ctx.db, req.clientId);
    if (!app || !containsRedirectUri(app, req.redirectUri)) {
      return errorRedirect(req.redirectUri, {
        code: "server_error",
        description: "A server error occurred",
        state,
      });
    }
    let grant = await oauth2Grants.findGrant(this.ctx.db, app.id, user.id);
    if (!grant) {
      grant = await oauth2Grants.insertGrant(this.ctx.db, app.id, user.id, req.scope);
    } else if (grant.scope !== req.scope) {
      return errorRedirect(req.redirectUri, {
        code: "server_error",
        description: "a grant exists with different scope",
        state,
      });
    }
    if (req.nonce !== "") await oauth2Grants.setNonce(this.ctx.db, grant.id, req.nonce);
    return this.issueCode(grant.id, req);
  }

  private async issueCode(grantId: number, req: AuthorizeRequest): Promise<string> {
    const code = generateAuthorizationCode();
    await oauth2Grants.insertCode(this.ctx.db, {
      grantId,
      codeHash: hashTokenSecret(code),
      codeChallenge: req.codeChallenge,
      codeChallengeMethod: req.codeChallengeMethod,
      redirectUri: req.redirectUri,
      validUntil: new Date(Date.now() + CODE_LIFETIME_MS),
    });
    return codeRedirect(req.redirectUri, code, req.state);
  }
}

function fail(code: AuthorizeError["code"], description: string, state: string): AuthorizeOutcome {
  return { kind: "error", error: { code, description, state } };
}
