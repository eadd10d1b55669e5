import { hasScopes, type ScopeCategory } from "@kiln/domain";
import { type Actor, ANONYMOUS, actorOf } from "@kiln/service";
import { getCookie } from "hono/cookie";
import { identify } from "../auth.js";
import type { AppContext } from "../env.js";

/** The longest session cookie value looked up (the web app ignores longer ones too). */
const MAX_COOKIE = 128;

/**
 * Who asks for a download outside `/api/` (an attachment, a release asset, a source archive):
 * these are the links pages and `browser_download_url` give, so, as Forgejo, both a browser's
 * session cookie and an API client's credentials work. Credentials (or `sudo`) win when sent; a token
 * without read access to any of `categories` is taken as anonymous. A session is loaded and
 * checked as the web app does it (`WebSessionService.load`, `AuthService.fromSession`).
 */
export async function downloadActor(c: AppContext, categories: readonly ScopeCategory[]): Promise<Actor> {
  const identifying = identify(c);
  if (identifying) {
    await identifying;
    const scopes = c.get("principal")?.scopes;
    const scoped = !scopes || categories.some((k) => hasScopes(scopes, "read", [k]));
    return scoped ? c.get("actor") : ANONYMOUS;
  }
  const services = c.get("services");
  const cookie = getCookie(c, c.get("settings").session.cookieName);
  if (!cookie || cookie.length > MAX_COOKIE) return ANONYMOUS;
  return actorOf(services.auth.fromSession(await services.webSessions.load(cookie)));
}
