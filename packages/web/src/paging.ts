import type { PageRequest } from "@kiln/domain";
import type { Fields } from "./forms.js";

/** Items per page of the lists (Forgejo's `[ui] EXPLORE_PAGING_NUM`). */
export const PAGE_SIZE = 20;

/**
 * The page a list shows: `?page=` (1-based; anything else is 1), clamped so that its row offset
 * stays a safe integer (such a page is past the end of any list, and simply empty).
 */
export function pageOf(fields: Fields, limit = PAGE_SIZE): PageRequest {
  const text = fields("page");
  const n = /^\d{1,16}$/.test(text) ? Number(text) : 1;
  const lastPage = Math.floor(Number.MAX_SAFE_INTEGER / limit);
  return { page: Math.min(Math.max(n, 1), lastPage), limit };
}

/** The most items a list page shows at once, whatever `?limit=` asks (Forgejo's `[api] MAX_RESPONSE_ITEMS`). */
export const MAX_PAGE_SIZE = 50;

/** `?limit=`: items per page, 1 to {@link MAX_PAGE_SIZE}; anything else is `fallback`. */
export function limitOf(fields: Fields, fallback = PAGE_SIZE): number {
  const text = fields("limit");
  const n = /^\d{1,4}$/.test(text) ? Number(text) : 0;
  return n >= 1 ? Math.min(n, MAX_PAGE_SIZE) : fallback;
}
