import type { ParsedSubject } from "./parse-subject.js";
import type { QuotaRule } from "./rule.js";
import { ruleHolds, summedUsage } from "./rule-check.js";
import type { SubjectSpelling } from "./subject.js";
import { RELATED_MASK, subjectIndex, subjectMask } from "./subject-bits.js";
import type { QuotaUsage } from "./usage.js";
import { usageVector } from "./usage-vector.js";
import type { RuleVerdict } from "./verdict.js";

/**
 * Whether `rule` applies to a check of `subject`: one of its subjects is the subject, an
 * ancestor or a descendant of it.
 * @throws {UnrecognizedSubjectError} for an unknown subject.
 */
export function ruleAppliesTo(rule: QuotaRule, subject: SubjectSpelling | ParsedSubject): boolean {
  const target = subjectIndex(typeof subject === "string" ? subject : subject.subject);
  return (subjectMask(rule.subjects) & RELATED_MASK[target]!) !== 0;
}

/**
 * One rule on its own, whatever is checked: the summed usage of its subjects, its limit, and
 * whether it stands (for overviews such as "x of y bytes used").
 * @throws {UnrecognizedSubjectError} | {InvalidUsageError} | {InvalidLimitError} for invalid input.
 */
export function evaluateRule(rule: QuotaRule, usage: QuotaUsage): RuleVerdict {
  const mask = subjectMask(rule.subjects);
  const vector = usageVector(usage);
  const used = summedUsage(vector, mask);
  return { rule, used, limit: rule.limit, stands: ruleHolds(rule, used, vector, mask) };
}
