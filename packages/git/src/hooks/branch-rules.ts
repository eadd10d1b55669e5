import picomatch from "picomatch";

/** The part of a branch protection rule that decides which branches it covers. */
export interface RuleNameLike {
  readonly ruleName: string;
  readonly priority?: number;
  readonly id?: number;
}

const GLOB_SPECIAL = /[*?[\]{}\\!]/;

/** Whether a rule name is a plain branch name rather than a glob (Forgejo's `IsRuleNameSpecial`, negated). */
export function isPlainRuleName(ruleName: string): boolean {
  return !GLOB_SPECIAL.test(ruleName);
}

const matcherCache = new Map<string, (branch: string) => boolean>();

function globMatcher(ruleName: string): (branch: string) => boolean {
  let matcher = matcherCache.get(ruleName);
  if (!matcher) {
    try {
      matcher = picomatch(ruleName, { dot: true });
    } catch {
      matcher = (branch) => branch === ruleName;
    }
    if (matcherCache.size > 1000) matcherCache.clear();
    matcherCache.set(ruleName, matcher);
  }
  return matcher;
}

/**
 * Whether one rule covers a branch: plain names compare case-insensitively, globs match with
 * `/` as separator (`*` stays within a path segment, `**` crosses them), as Forgejo does.
 */
export function ruleMatchesBranch(ruleName: string, branch: string): boolean {
  if (isPlainRuleName(ruleName)) return ruleName.toLowerCase() === branch.toLowerCase();
  return globMatcher(ruleName)(branch);
}

/**
 * Orders rules as Forgejo does before matching: exact-name rules first, then globs by
 * priority (lower first), then by id; the sort is stable for rules without either.
 */
export function sortBranchRules<T extends RuleNameLike>(rules: readonly T[]): T[] {
  return [...rules].sort((a, b) => {
    const plainA = isPlainRuleName(a.ruleName);
    const plainB = isPlainRuleName(b.ruleName);
    if (plainA !== plainB) return plainA ? -1 : 1;
    const byPriority = (a.priority ?? 0) - (b.priority ?? 0);
    if (byPriority !== 0) return byPriority;
    return (a.id ?? 0) - (b.id ?? 0);
  });
}

/**
 * The rule that protects `branch`, or undefined when none does: an exact-name rule wins over
 * globs, and among globs the first by priority. The API uses it too (e.g. to refuse deleting a
 * protected branch).
 */
export function findBranchRule<T extends RuleNameLike>(rules: readonly T[], branch: string): T | undefined {
  return sortBranchRules(rules).find((rule) => ruleMatchesBranch(rule.ruleName, branch));
}
