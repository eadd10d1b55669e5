import type { ParsedSubject } from "./parse-subject.js";
import type { QuotaGroup, QuotaGroupList } from "./rule.js";
import { ruleHolds, summedUsage } from "./rule-check.js";
import { SUBJECTS, type SubjectSpelling } from "./subject.js";
import { RELATED_MASK, subjectIndex, subjectMask, WIKI_INDEX } from "./subject-bits.js";
import type { QuotaUsage } from "./usage.js";
import { usageVector } from "./usage-vector.js";
import type { GroupVerdict, QuotaVerdict, RuleVerdict } from "./verdict.js";

type SubjectInput = SubjectSpelling | ParsedSubject;

function targetIndex(subject: SubjectInput): number {
  return subjectIndex(typeof subject === "string" ? subject : subject.subject);
}

function groupStands(group: QuotaGroup, vector: Float64Array, related: number): boolean {
  for (const rule of group.rules) {
    const mask = subjectMask(rule.subjects);
    if ((mask & related) !== 0 && !ruleHolds(rule, summedUsage(vector, mask), vector, mask)) return false;
  }
  return true;
}

/**
 * Whether an owner with `usage` is within quota for `subject` under `groups` (decision 3, docs/decisions.md):
 * a rule applies when one of its subjects is the subject, an ancestor or a descendant; a group
 * stands when every applicable rule stands; the list stands when any group stands (an empty list
 * imposes no limit); `size:wiki` is always within quota. Stops at the first standing group.
 * @throws {UnrecognizedSubjectError} for an unknown subject (checked, or in an evaluated rule).
 * @throws {InvalidUsageError} for invalid usage counters.
 * @throws {InvalidLimitError} for a non-integer limit of an evaluated rule.
 */
export function isWithinQuota(groups: QuotaGroupList, usage: QuotaUsage, subject: SubjectInput): boolean {
  const target = targetIndex(subject);
  const vector = usageVector(usage);
  if (target === WIKI_INDEX || groups.length === 0) return true;
  const related = RELATED_MASK[target]!;
  return groups.some((group) => groupStands(group, vector, related));
}

function explainGroup(group: QuotaGroup, vector: Float64Array, related: number): GroupVerdict {
  const rules: RuleVerdict[] = [];
  for (const rule of group.rules) {
    const mask = subjectMask(rule.subjects);
    if ((mask & related) === 0) continue;
    const used = summedUsage(vector, mask);
    rules.push({ rule, used, limit: rule.limit, stands: ruleHolds(rule, used, vector, mask) });
  }
  return { group, stands: rules.every((verdict) => verdict.stands), rules };
}

/**
 * The same check as {@link isWithinQuota}, explained: every group with the rules that apply to
 * `subject`, their summed usage, limit and outcome, and the reason for the result.
 * @throws the same errors as {@link isWithinQuota}, for any rule of any group.
 */
export function explainQuota(groups: QuotaGroupList, usage: QuotaUsage, subject: SubjectInput): QuotaVerdict {
  const target = targetIndex(subject);
  const vector = usageVector(usage);
  const checked = SUBJECTS[target]!;
  if (target === WIKI_INDEX)
    return { subject: checked, withinQuota: true, reason: "untracked-subject", groups: [] };
  if (groups.length === 0) return { subject: checked, withinQuota: true, reason: "no-groups", groups: [] };
  const related = RELATED_MASK[target]!;
  const verdicts = groups.map((group) => explainGroup(group, vector, related));
  const withinQuota = verdicts.some((verdict) => verdict.stands);
  return {
    subject: checked,
    withinQuota,
    reason: withinQuota ? "group-stands" : "no-group-stands",
    groups: verdicts,
  };
}
