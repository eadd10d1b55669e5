import { getCookie } from "hono/cookie";
import { serialize } from "hono/utils/cookie";
import type { WebContext } from "../env.js";
import { basePath } from "../urls.js";

/** The longest cookie value a session can have (longer ones are ignored unread). */
const MAX_COOKIE = 128;

/** The session cookie's value as the browser sent it (undefined when absent or oversized). */
export function sessionCookie(c: WebContext): string | undefined {
  const value = getCookie(c, c.get("settings").session.cookieName);
  return value && value.length <= MAX_COOKIE ? value : undefined;
}

/**
 * Sets the session cookie on the response: HttpOnly, SameSite=Lax, scoped to the site's path, and
 * Secure with `[session] COOKIE_SECURE` (true by default under an https ROOT_URL).
 */
export function setSessionCookie(c: WebContext, value: string): void {
  const settings = c.get("settings").session;
  c.header(
    "set-cookie",
    serialize(settings.cookieName, value, {
      path: `${basePath(c.get("settings"))}/`,
      httpOnly: true,
      sameSite: "Lax",
      secure: settings.cookieSecure,
      maxAge: settings.sessionLifeTime,
    }),
    { append: true },
  );
}

/** Removes the session cookie. */
export function clearSessionCookie(c: WebContext): void {
  const settings = c.get("settings").session;
  c.header(
    "set-cookie",
    serialize(settings.cookieName, "", {
      path: `${basePath(c.get("settings"))}/`,
      httpOnly: true,
      sameSite: "Lax",
      secure: settings.cookieSecure,
      maxAge: 0,
    }),
    { append: true },
  );
}
