// Small builders that keep the tests' rule and group tables readable.
import type { QuotaGroup, QuotaRule, QuotaUsage, SubjectSpelling } from "../src/index.js";
import { ZERO_USAGE } from "../src/index.js";

export function rule(name: string, limit: number, ...subjects: SubjectSpelling[]): QuotaRule {
  return { name, limit, subjects };
}

export function group(name: string, ...rules: QuotaRule[]): QuotaGroup {
  return { name, rules };
}

export function usage(counters: Partial<QuotaUsage>): QuotaUsage {
  return { ...ZERO_USAGE, ...counters };
}
