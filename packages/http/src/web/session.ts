import type { WebSession } from "@kiln/service";
import { getCookie } from "hono/cookie";
import { serialize } from "hono/utils/cookie";
import type { AppContext } from "../env.js";

/** The cookie path: the site's root path (ROOT_URL may have a sub-path). */
function cookiePath(c: AppContext): string {
  return new URL(c.get("settings").server.rootUrl).pathname || "/";
}

/** The session cookie's value as the browser sent it. */
export function sessionCookie(c: AppContext): string | undefined {
  return getCookie(c, c.get("settings").session.cookieName);
}

/** Sets the session cookie: HttpOnly, SameSite=Lax, Secure with `[session] COOKIE_SECURE`. */
export function setSessionCookie(c: AppContext, value: string, headers: Headers): void {
  const settings = c.get("settings").session;
  headers.append(
    "set-cookie",
    serialize(settings.cookieName, value, {
      path: cookiePath(c),
      httpOnly: true,
      sameSite: "Lax",
      secure: settings.cookieSecure,
      maxAge: settings.sessionLifeTime,
    }),
  );
}

/** Removes the session cookie. */
export function clearSessionCookie(c: AppContext, headers: Headers): void {
  const settings = c.get("settings").session;
  headers.append(
    "set-cookie",
    `${settings.cookieName}=; Path=${cookiePath(c)}; Max-Age=0; HttpOnly; SameSite=Lax${settings.cookieSecure ? "; Secure" : ""}`,
  );
}

/** The signed-in session of the request, if any. */
export async function signedIn(c: AppContext): Promise<WebSession | undefined> {
  const session = await c.get("services").webSessions.load(sessionCookie(c));
  return session?.user ? session : undefined;
}

/**
 * The cookie value a page's form is bound to (its CSRF token derives from it): the request's, or
 * a new one set on the response for a first visit.
 */
export function formCookie(c: AppContext, headers: Headers): string {
  const existing = sessionCookie(c);
  if (existing && existing.length <= 128) return existing;
  const fresh = c.get("services").webSessions.newCookie();
  setSessionCookie(c, fresh, headers);
  return fresh;
}

/** Whether the form's `_csrf` belongs to the request's cookie. */
export function csrfOk(c: AppContext, token: string): boolean {
  return c.get("services").webSessions.checkCsrf(sessionCookie(c), token);
}
