import { randomBytes } from "node:crypto";

/** A fresh nonce for one response's Content-Security-Policy (128 random bits). */
export function newNonce(): string {
  return randomBytes(16).toString("base64");
}

/** What a page may relax in the policy. */
export interface PolicyOptions {
  /**
   * Let forms lead anywhere: the OAuth2 consent form posts here and is redirected to the
   * application, and browsers check `form-action` along redirects.
   */
  readonly formsLeaveSite?: boolean;
}

/**
 * The Content-Security-Policy of a page: nothing by default; scripts and style sheets only from
 * this site and only with this response's nonce (no inline script can run, not even one injected
 * into the markup); images from this site (avatars) and `data:`; no framing, no `<base>`, and
 * forms post only here.
 */
export function contentSecurityPolicy(nonce: string, options: PolicyOptions = {}): string {
  return [
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'self' 'nonce-${nonce}'`,
    "img-src 'self' data:",
    "connect-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
    ...(options.formsLeaveSite ? [] : ["form-action 'self'"]),
  ].join("; ");
}

/**
 * Sets the headers every page answer carries: the policy, no framing (`X-Frame-Options: DENY`,
 * for browsers without `frame-ancestors`), no type sniffing, no referrer to other sites, and no
 * shared caching (pages depend on who is signed in). An answer that set its own policy (a raw
 * file's) keeps it.
 */
export function securePage(response: Response, nonce: string, options: PolicyOptions = {}): Response {
  let out = response;
  try {
    out.headers.set("x-frame-options", "DENY");
  } catch {
    // A Response with immutable headers (`Response.redirect`): copy it.
    out = new Response(response.body, response);
    out.headers.set("x-frame-options", "DENY");
  }
  // A raw file brings its own, stricter policy (an SVG's runs nothing at all).
  if (!out.headers.has("content-security-policy"))
    out.headers.set("content-security-policy", contentSecurityPolicy(nonce, options));
  out.headers.set("x-content-type-options", "nosniff");
  out.headers.set("referrer-policy", "same-origin");
  if (!out.headers.has("cache-control"))
    out.headers.set("cache-control", "private, max-age=0, must-revalidate");
  return out;
}
