// Internal: the arithmetic of one rule, shared by every evaluation entry point.
import { InvalidLimitError } from "./errors.js";
import { type QuotaRule, UNLIMITED } from "./rule.js";

/** Summed usage of the subjects in `mask` (float; exact while at most 2^53 - 1). */
export function summedUsage(vector: Float64Array, mask: number): number {
  let sum = 0;
  for (let rest = mask; rest !== 0; rest &= rest - 1) sum += vector[31 - Math.clz32(rest & -rest)]!;
  return sum;
}

/**
 * Whether `rule` stands given the summed usage `used` of its subjects (`mask`): `-1` always stands,
 * otherwise `used < limit`. A sum beyond 2^53 - 1 is recomputed exactly with bigints.
 * @throws {InvalidLimitError} when the limit is not an integer.
 */
export function ruleHolds(rule: QuotaRule, used: number, vector: Float64Array, mask: number): boolean {
  const limit = rule.limit;
  if (!Number.isInteger(limit)) throw new InvalidLimitError(rule.name, limit);
  if (limit === UNLIMITED) return true;
  if (used <= Number.MAX_SAFE_INTEGER) return used < limit;
  let exact = 0n;
  for (let rest = mask; rest !== 0; rest &= rest - 1) exact += BigInt(vector[31 - Math.clz32(rest & -rest)]!);
  return exact < BigInt(limit);
}
