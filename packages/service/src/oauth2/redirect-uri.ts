import type { OAuth2ApplicationRecord } from "@kiln/storage";
import type { AuthorizeError } from "./oauth2-error.js";

const normalize = (uri: string) => uri.toLowerCase().replace(/\/$/, "");

function isLoopback(host: string): boolean {
  return host === "[::1]" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host);
}

/**
 * Forgejo's ContainsRedirectURI: a registered URI compared without case and a trailing slash; a
 * public client may use any port on a loopback http URI (RFC 8252 §7.3).
 */
export function containsRedirectUri(app: OAuth2ApplicationRecord, uri: string): boolean {
  const registered = new Set(app.redirectUris.map(normalize));
  if (registered.has(normalize(uri))) return true;
  if (app.confidentialClient || !URL.canParse(uri)) return false;
  const url = new URL(uri);
  if (url.protocol !== "http:" || url.port === "" || !isLoopback(url.hostname)) return false;
  url.port = "";
  return registered.has(normalize(url.toString())) || registered.has(normalize(uri.replace(/:\d+/, "")));
}

/** The client's redirect URI with the code (and state, when given), as Forgejo's GenerateRedirectURI. */
export function codeRedirect(redirectUri: string, code: string, state: string): string {
  const url = new URL(redirectUri);
  url.searchParams.set("code", code);
  if (state !== "") url.searchParams.set("state", state);
  return url.toString();
}

/** The client's redirect URI with an error, as Forgejo's handleAuthorizeError. */
export function errorRedirect(redirectUri: string, error: AuthorizeError): string {
  const url = new URL(redirectUri);
  url.searchParams.set("error", error.code);
  url.searchParams.set("error_description", error.description);
  url.searchParams.set("state", error.state);
  return url.toString();
}
