import type { Paged, PageRequest, Settings } from "@kiln/domain";
import type { AppContext } from "./env.js";

/**
 * Forgejo's paging rules (decision 10, docs/decisions.md): `page` is 1-based (≤ 0 or garbage → 1); `limit`
 * defaults to `[api] DEFAULT_PAGING_NUM` and is clamped to `[api] MAX_RESPONSE_ITEMS`. A huge
 * `page` is clamped so that its row offset stays a safe integer (far inside PostgreSQL's bigint):
 * such a page lies past the end of any list and is simply empty.
 */
export function pageRequest(
  query: { page?: string | undefined; limit?: string | undefined },
  api: Pick<Settings["api"], "defaultPagingNum" | "maxResponseItems">,
): PageRequest {
  const page = toInt(query.page);
  const asked = toInt(query.limit);
  const limit = asked <= 0 ? api.defaultPagingNum : Math.min(asked, api.maxResponseItems);
  const lastPage = Math.floor(Number.MAX_SAFE_INTEGER / limit);
  return { page: page > 0 ? Math.min(page, lastPage) : 1, limit };
}

/** A decimal integer, or 0 for anything else; values beyond the safe range saturate. */
function toInt(value: string | undefined): number {
  if (value === undefined || !/^\s*-?\d+\s*$/.test(value)) return 0;
  const n = Number.parseInt(value, 10);
  return Number.isSafeInteger(n) ? n : n > 0 ? Number.MAX_SAFE_INTEGER : Number.MIN_SAFE_INTEGER;
}

/**
 * Sets `X-Total-Count` and Forgejo's `Link` header (next, last, first, prev; comma-joined; each
 * URL is ROOT_URL + the request path with its query re-encoded and `page` replaced).
 */
export function setPagingHeaders(c: AppContext, page: PageRequest, total: number): void {
  c.header("X-Total-Count", String(total));
  const link = linkHeader(c.get("settings").server.rootUrl, new URL(c.req.url), page, total);
  if (link) c.header("Link", link);
  c.header("Access-Control-Expose-Headers", "X-Total-Count, Link");
}

/** The `Link` header value for a page of a list, or "" when everything fits on one page. */
export function linkHeader(rootUrl: string, url: URL, page: PageRequest, total: number): string {
  const lastPage = Math.max(1, Math.ceil(total / page.limit));
  const links: string[] = [];
  const at = (n: number, rel: string) => links.push(`<${rootUrl}${pathWithPage(url, n)}>; rel="${rel}"`);
  if (total > page.page * page.limit) at(page.page + 1, "next");
  if (page.page < lastPage) at(lastPage, "last");
  if (page.page > 1) {
    at(1, "first");
    at(page.page - 1, "prev");
  }
  return links.join(",");
}

/** The request path (without its leading slash) with the query re-encoded Go-style, keys sorted. */
function pathWithPage(url: URL, page: number): string {
  const params = new Map<string, string[]>();
  for (const [k, v] of url.searchParams) params.set(k, [...(params.get(k) ?? []), v]);
  params.set("page", [String(page)]);
  const query = [...params.keys()]
    .sort()
    .flatMap((k) => (params.get(k) ?? []).map((v) => `${goEscape(k)}=${goEscape(v)}`))
    .join("&");
  return `${url.pathname.replace(/^\//, "")}?${query}`;
}

/** Go's url.QueryEscape: like encodeURIComponent, but space is '+' and only -_.~ stay unescaped. */
function goEscape(s: string): string {
  return encodeURIComponent(s)
    .replace(/%20/g, "+")
    .replace(/[!'()*]/g, (ch) => `%${ch.charCodeAt(0).toString(16).toUpperCase()}`);
}

/**
 * The shape of every list endpoint: read `page`/`limit`, load one page, set `X-Total-Count` and
 * `Link`, and answer the converted items as a JSON array.
 */
export async function pagedJson<T, U>(
  c: AppContext,
  query: { page?: string | undefined; limit?: string | undefined },
  load: (page: PageRequest) => Promise<Paged<T>>,
  convert: (item: T) => U | Promise<U>,
): Promise<Response> {
  const page = pageRequest(query, c.get("settings").api);
  const list = await load(page);
  setPagingHeaders(c, page, list.total);
  const items: U[] = [];
  for (const item of list.items) items.push(await convert(item));
  return c.json(items);
}

/** The most items a list answers when the client asks for no page (Forgejo then answers all of them). */
export const UNPAGED_LIMIT = 1000;

/**
 * Forgejo's rule for lists that page only on request (labels, milestones, comments of a
 * repository): with `page` ≥ 1, that page; without it, everything, which Kiln bounds to
 * {@link UNPAGED_LIMIT} items. Sets `X-Total-Count` (and `Link` when a page was asked for).
 */
export async function optionallyPagedJson<T, U>(
  c: AppContext,
  query: { page?: string | undefined; limit?: string | undefined },
  load: (page: PageRequest) => Promise<Paged<T>>,
  convert: (item: T) => U | Promise<U>,
): Promise<Response> {
  const asked = toInt(query.page) >= 1;
  const page = asked ? pageRequest(query, c.get("settings").api) : { page: 1, limit: UNPAGED_LIMIT };
  const list = await load(page);
  if (asked) setPagingHeaders(c, page, list.total);
  else {
    c.header("X-Total-Count", String(list.total));
    c.header("Access-Control-Expose-Headers", "X-Total-Count, Link");
  }
  const items: U[] = [];
  for (const item of list.items) items.push(await convert(item));
  return c.json(items);
}
