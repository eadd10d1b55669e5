import type { ScopeCategory } from "@kiln/domain";
import { type Actor, ANONYMOUS, actorOf, readingAs } from "@kiln/service";
import { getCookie } from "hono/cookie";
import { identify } from "../auth.js";
import type { AppContext } from "../env.js";

/** The longest session cookie value looked up (the web app ignores longer ones too). */
const MAX_COOKIE = 128;

/**
 * Who asks for a download outside `/api/` (an attachment, a release asset, a source archive):
 * these are the links pages and `browser_download_url` give, so, as Forgejo, both a browser's
 * session cookie and an API client's credentials work. Credentials (or `sudo`) win when sent. A
 * token is judged by the access module for the kind of thing read (`readingAs`): by `category`
 * when the route knows it, else by the service once it knows what the download is. A session is
 * loaded and checked as the web app does it (`WebSessionService.load`, `AuthService.fromSession`).
 */
export async function downloadActor(c: AppContext, category?: ScopeCategory): Promise<Actor> {
  const identifying = identify(c);
  if (identifying) {
    await identifying;
    const actor = c.get("actor");
    return category ? readingAs(actor, category) : actor;
  }
  const services = c.get("services");
  const cookie = getCookie(c, c.get("settings").session.cookieName);
  if (!cookie || cookie.length > MAX_COOKIE) return ANONYMOUS;
  return actorOf(services.auth.fromSession(await services.webSessions.load(cookie)));
}
