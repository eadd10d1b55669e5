import { compileGlob, type Glob, type GlobOptions, GlobSyntaxError } from "../glob/glob.js";

/**
 * Tag protection (Forgejo's models/git/protected_tag.go): a rule's name pattern is a glob where
 * `*` crosses `/` (gobwas/glob without separators), `?` is one character, `[abc]`, `[!a-z]` are
 * classes, `{a,b}` alternatives and `\` escapes, matched by Kiln's linear glob matcher, never a
 * backtracking regular expression, so no pattern can make a push or request slow.
 */

/** A pattern Kiln cannot use: unbalanced brackets or braces, or a regular expression. */
export class TagPatternError extends Error {}

/** Whether a pattern is Forgejo's regular-expression form (`/…/`), which Kiln does not take. */
export function isRegexTagPattern(pattern: string): boolean {
  return pattern.length >= 2 && pattern.startsWith("/") && pattern.endsWith("/");
}

function compiled(pattern: string, options: GlobOptions): Glob {
  try {
    return compileGlob(pattern, options);
  } catch (error) {
    if (error instanceof GlobSyntaxError) throw new TagPatternError(error.message);
    throw error;
  }
}

/** Compiles a glob tag pattern; throws {@link TagPatternError} for one Kiln cannot use. */
export function compileTagPattern(pattern: string): Glob {
  if (isRegexTagPattern(pattern))
    throw new TagPatternError("regular-expression tag patterns are not supported");
  return compiled(pattern, {});
}

/**
 * A path glob in gobwas/glob's syntax with `/` as separator (how Forgejo reads `.forgejo/template`):
 * `*` and `?` stay within a path segment, `**` crosses segments, with classes, `{a,b}` and
 * escapes. Throws {@link TagPatternError} for a glob Kiln cannot use.
 */
export function compilePathGlob(glob: string): (path: string) => boolean {
  const matcher = compiled(glob, { separators: "/" });
  return (path) => matcher.matches(path);
}

/**
 * Whether a tag name matches a rule's pattern. A stored pattern that does not compile (the API
 * refuses such patterns; one could only come from elsewhere) matches every tag: a broken rule
 * protects too much rather than nothing.
 */
export function tagPatternMatches(pattern: string, tag: string): boolean {
  let matcher: Glob;
  try {
    matcher = compileTagPattern(pattern.trim());
  } catch {
    return true;
  }
  return matcher.matches(tag);
}

/** One tag protection rule as it applies to one user: its pattern, and whether the user is on its allowlists. */
export interface TagRulePolicy {
  readonly pattern: string;
  readonly allowed: boolean;
}

/**
 * Forgejo's `IsUserAllowedToControlTag`: a tag no rule matches is free; otherwise the user must be
 * allowed by at least one matching rule.
 */
export function mayControlTag(rules: readonly TagRulePolicy[], tag: string): boolean {
  let allowed = true;
  for (const rule of rules) {
    if (!tagPatternMatches(rule.pattern, tag)) continue;
    allowed = rule.allowed;
    if (allowed) break;
  }
  return allowed;
}
