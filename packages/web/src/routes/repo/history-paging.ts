import type { PageRequest } from "@kiln/domain";
import type { Fields } from "../../forms.js";
import { pageOf } from "../../paging.js";

/** Forgejo's `[git] COMMITS_RANGE_SIZE`: commits per page of a history, and the most `limit` may ask. */
export const COMMITS_PAGE_SIZE = 50;
/** Forgejo's `[git] BRANCHES_RANGE_SIZE`: branches (and tags) per page. */
export const BRANCHES_PAGE_SIZE = 20;
/** git reads `--skip` as a 32-bit int: a deeper page is simply past the end of any history. */
const MAX_SKIP = 2_000_000_000;

/**
 * The page of a history: `?page=` and `?limit=` (1 to `max`, `max` when absent or not a number),
 * with the offset kept within what git accepts.
 */
export function historyPage(fields: Fields, max = COMMITS_PAGE_SIZE): PageRequest {
  const text = fields("limit");
  const asked = /^\d{1,4}$/.test(text) ? Number(text) : max;
  const limit = Math.min(Math.max(asked, 1), max);
  const page = pageOf(fields, limit);
  return { page: Math.min(page.page, Math.floor(MAX_SKIP / limit)), limit };
}

/** The query a history's page links keep: `limit` only when it differs from the default. */
export function limitQuery(page: PageRequest, max = COMMITS_PAGE_SIZE): { limit?: string } {
  return page.limit === max ? {} : { limit: String(page.limit) };
}
