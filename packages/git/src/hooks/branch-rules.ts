import { compileGlob, GlobSyntaxError } from "../glob/glob.js";

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

/** The longest rule name (Forgejo's `rule_name` column); a longer one is refused with 422. */
export const MAX_RULE_NAME_LENGTH = 255;

/**
 * Whether a glob rule name covers a branch, in gobwas/glob's syntax with `/` as separator (Forgejo's
 * `glob.Compile(ruleName, '/')`), by Kiln's linear matcher: compiled once per rule name. A name
 * that is no valid glob matches only itself, as Forgejo falls back to its quoted form.
 */
function globMatches(ruleName: string, branch: string): boolean {
  try {
    return compileGlob(ruleName, { separators: "/" }).matches(branch);
  } catch (error) {
    if (error instanceof GlobSyntaxError) return branch === ruleName;
    throw error;
  }
}

/**
 * Whether one rule covers a branch: plain names compare case-insensitively, globs match with
 * `/` as separator (`*` and `?` stay within a path segment, `**` crosses them), as Forgejo does.
 */
export function ruleMatchesBranch(ruleName: string, branch: string): boolean {
  if (isPlainRuleName(ruleName)) return ruleName.toLowerCase() === branch.toLowerCase();
  return globMatches(ruleName, branch);
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
