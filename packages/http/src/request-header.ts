import type { AppContext } from "./env.js";

/**
 * A request header by its lower-case name (the first one sent, as Node keeps `Authorization`).
 * On Node's server it is read from the raw header list: `c.req.header()` makes the request build
 * a full `Headers` object first, which an anonymous GET otherwise never needs. Elsewhere (tests
 * calling `app.request`) it is Hono's `c.req.header()`.
 */
export function requestHeader(c: AppContext, lowerName: string): string | undefined {
  const raw = (c.env as { incoming?: { rawHeaders?: readonly string[] } } | undefined)?.incoming?.rawHeaders;
  if (!raw) return c.req.header(lowerName);
  for (let index = 0; index < raw.length; index += 2) {
    const name = raw[index] as string;
    if (name.length === lowerName.length && name.toLowerCase() === lowerName) return raw[index + 1];
  }
  return undefined;
}

/**
 * The request's target as sent (its path and query) on Node's server, else its URL: enough to
 * look for a query parameter's name or an escape such as `%00` without building Hono's request
 * object, which an anonymous GET of a static path otherwise never needs.
 */
export function requestTarget(c: AppContext): string {
  return (c.env as { incoming?: { url?: string } } | undefined)?.incoming?.url ?? c.req.url;
}
