import type { Paged, PageRequest } from "@kiln/domain";
import { offsetOf } from "@kiln/domain";
import type { SelectQueryBuilder } from "kysely";

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
 * the API (items plus `X-Total-Count`). Counts are normalized to numbers here. A page whose
 * offset is not a safe integer lies past the end of any table: it is empty without asking
 * PostgreSQL (whose bigint it might not even fit).
 */
export async function paged<T>(rows: Pageable<T>, count: Countable, page: PageRequest): Promise<Paged<T>> {
  const offset = Math.max(0, offsetOf(page));
  const fits = Number.isSafeInteger(offset) && Number.isSafeInteger(page.limit) && page.limit >= 0;
  const [items, total] = await Promise.all([
    fits ? rows.limit(page.limit).offset(offset).execute() : ([] as T[]),
    count.executeTakeFirstOrThrow(),
  ]);
  return { items, total: Number(total.count) };
}

/**
 * The paged-query idiom in one call: `base` holds the joins and filters, `rows` picks the columns
 * and the order of a page, and the total is counted over the same `base`, so the two never drift
 * apart.
 */
export function pageOf<DB, TB extends keyof DB, O, T>(
  base: SelectQueryBuilder<DB, TB, O>,
  rows: (base: SelectQueryBuilder<DB, TB, O>) => Pageable<T>,
  page: PageRequest,
): Promise<Paged<T>> {
  // Kysely cannot resolve the selection's shape while the database type is generic; it is `{ count }`.
  const count = base.select((eb) => eb.fn.countAll<number>().as("count")) as unknown as Countable;
  return paged(rows(base), count, page);
}
