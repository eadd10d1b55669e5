import type { Db } from "../database.js";
import type { UsageCounters } from "./quota-usage.js";

/**
 * One kind of stored data counted by the quota ledger: the bytes it holds per owner, summed from
 * its source table(s) for the given owners (owners holding nothing may be absent).
 */
export type UsageSource = (
  db: Db,
  ownerIds: readonly number[],
) => Promise<ReadonlyMap<number, Partial<UsageCounters>>>;
