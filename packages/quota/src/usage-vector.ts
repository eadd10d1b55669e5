// Internal: an owner's usage of every subject, indexed like SUBJECTS, computed once per evaluation.
import { InvalidUsageError } from "./errors.js";
import { SUBJECTS } from "./subject.js";
import { descendantsOf } from "./subject-tree.js";
import { type QuotaUsage, USAGE_COUNTER_SUBJECTS, USAGE_COUNTERS, type UsageCounter } from "./usage.js";

/** For each subject index, the leaf counters whose sum is that subject's usage. */
const COUNTERS_OF: readonly (readonly UsageCounter[])[] = SUBJECTS.map((subject) => {
  const covered = new Set([subject, ...descendantsOf(subject)]);
  return USAGE_COUNTERS.filter((counter) => covered.has(USAGE_COUNTER_SUBJECTS[counter]));
});

/**
 * Validates `usage` and returns the usage of every subject, each an exact safe integer.
 * @throws {InvalidUsageError} when a counter is not a non-negative safe integer or the total is not safe.
 */
export function usageVector(usage: QuotaUsage): Float64Array {
  let total = 0;
  for (const counter of USAGE_COUNTERS) {
    const value = usage[counter];
    if (!Number.isSafeInteger(value) || value < 0) throw new InvalidUsageError(counter, value);
    total += value;
  }
  if (total > Number.MAX_SAFE_INTEGER) throw new InvalidUsageError("total", total);
  const vector = new Float64Array(SUBJECTS.length);
  COUNTERS_OF.forEach((counters, index) => {
    for (const counter of counters) vector[index]! += usage[counter];
  });
  return vector;
}
