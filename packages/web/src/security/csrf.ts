import type { WebContext } from "../env.js";
import { sessionCookie, setSessionCookie } from "./cookies.js";

/**
 * The CSRF token for this visitor's forms: an HMAC of the session cookie under the instance's
 * secret key (`WebSessionService.csrfToken`), so a token is worthless without the cookie it was
 * made for and another site can read neither. A first-time visitor gets a fresh cookie (nothing is
 * stored for it until they sign in).
 */
export function csrfToken(c: WebContext): string {
  const services = c.get("services");
  let cookie = c.get("session")?.cookie ?? sessionCookie(c) ?? c.get("freshCookie");
  if (!cookie) {
    cookie = services.webSessions.newCookie();
    setSessionCookie(c, cookie);
    // Later forms of the same page use the cookie just set.
    c.set("freshCookie", cookie);
  }
  return services.webSessions.csrfToken(cookie);
}

/** Whether a posted `_csrf` field belongs to the request's session cookie. */
export function csrfValid(c: WebContext, token: string): boolean {
  return c.get("services").webSessions.checkCsrf(sessionCookie(c), token);
}
