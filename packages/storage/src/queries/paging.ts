import type { Paged, PageRequest } from "@kiln/domain";
import { offsetOf } from "@kiln/domain";

/** A query that can be cut to a page (Kysely's select builder is one). */
interface Pageable<T> {
  limit(limit: number): { offset(offset: number): { execute(): Promise<T[]> } };
}

/** A query answering `{ count }` (`countAll().as("count")`). */
interface Countable {
  executeTakeFirstOrThrow(): Promise<{ count: unknown }>;
}

/**
 * Runs the page of `rows` and the total of `count` together: the one shape of every list in
 * the API (items plus `X-Total-Count`). Counts are normalized to numbers here.
 */
export async function paged<T>(rows: Pageable<T>, count: Countable, page: PageRequest): Promise<Paged<T>> {
  const [items, total] = await Promise.all([
    rows.limit(page.limit).offset(offsetOf(page)).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.count) };
}
