import { InvalidArgumentError, type QuotaGroupRecord, type QuotaRuleRecord } from "@kiln/domain";
import {
  type ParsedSubject,
  parseSubject,
  type QuotaGroup,
  type QuotaRule,
  type SubjectSpelling,
  UnrecognizedSubjectError,
} from "@kiln/quota";

/**
 * Parses one subject as written by a client; anything unknown is 422 with Forgejo's message
 * `unrecognized quota limit subject: [subject: <s>]`.
 */
export function parseSubjectArgument(value: string): ParsedSubject {
  try {
    return parseSubject(value);
  } catch (err) {
    if (err instanceof UnrecognizedSubjectError) throw new InvalidArgumentError(err.message);
    throw err;
  }
}

/** Validates a rule's subjects, keeping each in the spelling given (decision 2, docs/decisions.md). */
export function parseSubjectList(values: readonly string[]): SubjectSpelling[] {
  return values.map((value) => parseSubjectArgument(value).spelling);
}

/** A stored rule as the engine takes it (subjects were validated when written). */
export function engineRule(rule: QuotaRuleRecord): QuotaRule {
  return { name: rule.name, limit: rule.limit, subjects: rule.subjects as readonly SubjectSpelling[] };
}

/** A stored group as the engine takes it. */
export function engineGroup(group: QuotaGroupRecord): QuotaGroup {
  return { name: group.name, rules: group.rules.map(engineRule) };
}
