import type { WebContext } from "./env.js";
import { basePath } from "./urls.js";

/**
 * A 303 redirect to a path of this site (the base path put before it): after a form post the
 * browser follows with GET.
 */
export function seeOther(c: WebContext, path: string): Response {
  return c.redirect(`${basePath(c.get("settings"))}${path}`, 303);
}
