/** A validated page request: `page` is 1-based, `limit` already clamped to the instance maximum. */
export interface PageRequest {
  readonly page: number;
  readonly limit: number;
}

/** One page of a list plus the total number of items across all pages. */
export interface Paged<T> {
  readonly items: readonly T[];
  readonly total: number;
}

/** The row offset of a page. */
export function offsetOf(page: PageRequest): number {
  return (page.page - 1) * page.limit;
}
