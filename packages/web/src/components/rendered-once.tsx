import { raw } from "hono/html";
import type { Child } from "hono/jsx";

/**
 * Rendered parts of pages kept between requests, in characters of HTML: a commit's diff of 50
 * files is about a thousand table rows, and rendering them took nine tenths of its page's time.
 */
const MAX_CACHED_CHARS = 4_000_000;
/** A part longer than this is rendered every time. */
const MAX_ENTRY_CHARS = 1_000_000;

const rendered = new Map<string, string>();
let cachedChars = 0;

/**
 * Renders `children` once per `cacheKey` and answers the remembered HTML after that. Only for a
 * part of a page that is a pure function of what the key names, for every viewer: the key must
 * name all of it (a commit's diff: the repository, the commit, the layout), and the part must
 * hold nothing personal (no CSRF token, no viewer's name). A part that renders asynchronously is
 * not kept.
 */
export function RenderedOnce(props: { cacheKey: string; children: Child }) {
  const known = rendered.get(props.cacheKey);
  if (known !== undefined) {
    rendered.delete(props.cacheKey);
    rendered.set(props.cacheKey, known);
    return raw(known);
  }
  const html = (<>{props.children}</>).toString();
  if (typeof html !== "string") return html;
  if (html.length <= MAX_ENTRY_CHARS) {
    rendered.set(props.cacheKey, html);
    cachedChars += html.length;
    for (const [oldest, entry] of rendered) {
      if (cachedChars <= MAX_CACHED_CHARS) break;
      rendered.delete(oldest);
      cachedChars -= entry.length;
    }
  }
  return raw(html);
}
