import type { Settings } from "@kiln/domain";
import type { WebContext } from "./env.js";
import type { Fields } from "./forms.js";

/**
 * One page (or one form's target) of the web interface, declared once: the app registers it, and
 * the tests walk the same list (the page-access property test visits every `get` page as hostile
 * visitors; every `post` must refuse a missing CSRF token), so a new page is covered the day it is added.
 */
export interface PageRoute {
  readonly method: "get" | "post";
  /** Hono's path syntax (`/:username`); Forgejo's path for the same page. */
  readonly path: string;
  /** `signed-in`: anonymous visitors are sent to the sign-in page (and back here after it). */
  readonly access: "public" | "signed-in";
  /**
   * Query strings that show other views of the same page (a profile's tabs), which the property
   * test visits as well.
   */
  readonly variants?: readonly string[];
  /** Whether the page exists under these settings (default: always). */
  readonly enabled?: (settings: Settings) => boolean;
  /** Forms on this page lead off the site (the OAuth2 consent redirects to the application). */
  readonly formsLeaveSite?: boolean;
  /**
   * A `post` that other sites send on purpose (the OAuth2 authorization endpoint), so it cannot
   * carry a token. Such a route must change nothing that a `get` of it would not.
   */
  readonly csrfExempt?: boolean;
  /**
   * Answers the request. `fields` are the query's for `get` and the form's for `post`, whose CSRF
   * token has already been checked.
   */
  handler(c: WebContext, fields: Fields): Response | Promise<Response>;
}

/** Declares a page (typed, and a place to hang the route's documentation). */
export function page(route: PageRoute): PageRoute {
  return route;
}
