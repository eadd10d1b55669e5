export { parseByteSize, tryParseByteSize } from "./byte-size.js";
export { describeVerdict, failedRules } from "./describe-verdict.js";
export { InvalidLimitError, InvalidUsageError, QuotaError, UnrecognizedSubjectError } from "./errors.js";
export { explainQuota, isWithinQuota } from "./evaluate.js";
export { evaluateRule, ruleAppliesTo } from "./evaluate-rule.js";
export {
  canonicalSubject,
  isSubjectSpelling,
  type ParsedSubject,
  parseSubject,
  sameSubject,
} from "./parse-subject.js";
export {
  BUILTIN_GROUP_NAME,
  BUILTIN_RULE_NAME,
  builtinGroup,
  type GroupResolutionInput,
  type GroupSource,
  type ResolvedGroups,
  resolveGroups,
} from "./resolve-groups.js";
export { type QuotaGroup, type QuotaGroupList, type QuotaRule, UNLIMITED } from "./rule.js";
export {
  SUBJECT_ALIASES,
  SUBJECTS,
  type Subject,
  type SubjectAlias,
  type SubjectSpelling,
} from "./subject.js";
export {
  ancestorsOf,
  childrenOf,
  descendantsOf,
  isAncestorOf,
  parentOf,
  subjectsRelated,
} from "./subject-tree.js";
export {
  type QuotaUsage,
  USAGE_COUNTER_SUBJECTS,
  USAGE_COUNTERS,
  type UsageCounter,
  ZERO_USAGE,
} from "./usage.js";
export { usageOf } from "./usage-of.js";
export type { GroupVerdict, QuotaVerdict, QuotaVerdictReason, RuleVerdict } from "./verdict.js";
