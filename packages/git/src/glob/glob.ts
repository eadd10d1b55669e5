import { GlobAutomaton } from "./glob-automaton.js";
import { type GlobDialect, GlobSyntaxError, parseGlob } from "./glob-syntax.js";

export { globSteps } from "./glob-automaton.js";
export { type GlobDialect, GlobSyntaxError } from "./glob-syntax.js";

/**
 * Kiln's one matcher of user-supplied globs. Every pattern a user or a repository supplies —
 * webhook branch filters, branch and tag protection names, protected file patterns, template
 * globs, EditorConfig sections, status check contexts — is matched here, in time linear in the
 * pattern and in the subject (see glob-automaton.ts); no user text ever becomes a regular
 * expression. Compiled globs are cached by their text, so a rule is compiled once after it
 * changes, not once per request.
 */

/** How a pattern is read. The defaults are Forgejo's `glob.Compile(pattern)` (gobwas/glob). */
export interface GlobOptions {
  /**
   * Characters `*` and `?` do not match (gobwas/glob's separators); `**` crosses them. None by
   * default: then `*` matches anything, slashes included.
   */
  readonly separators?: string;
  /** `gobwas` (default) or `editorconfig` (`**` + `/` also matches no directory, `{x}` is literal). */
  readonly dialect?: GlobDialect;
  /** Lower-case pattern and subject before matching, as Forgejo does for file patterns. */
  readonly ignoreCase?: boolean;
}

/** A compiled glob. */
export interface Glob {
  readonly pattern: string;
  /** The automaton's states: matching costs at most this many steps per character of a subject. */
  readonly size: number;
  /** Whether the whole of `subject` matches. */
  matches(subject: string): boolean;
}

/**
 * The longest pattern the matcher compiles (a webhook's `branch_filter` may be 4,096 characters);
 * each use sets its own, smaller limit where Forgejo's columns are smaller.
 */
export const MAX_GLOB_LENGTH = 4096;

/** Compiled globs kept; the least recently used beyond this is dropped. */
const MAX_CACHED = 2048;
const cache = new Map<string, Glob>();

/**
 * Compiles `pattern` (cached by its text and options); throws {@link GlobSyntaxError} for a pattern
 * that cannot be read or is longer than {@link MAX_GLOB_LENGTH}.
 */
export function compileGlob(pattern: string, options: GlobOptions = {}): Glob {
  const separators = options.separators ?? "";
  const dialect = options.dialect ?? "gobwas";
  const ignoreCase = options.ignoreCase ?? false;
  const key = `${dialect}\u0000${separators}\u0000${ignoreCase ? 1 : 0}\u0000${pattern}`;
  const known = cache.get(key);
  if (known) {
    cache.delete(key);
    cache.set(key, known);
    return known;
  }
  if (pattern.length > MAX_GLOB_LENGTH) {
    throw new GlobSyntaxError(`pattern longer than ${MAX_GLOB_LENGTH} characters`);
  }
  const source = ignoreCase ? pattern.toLowerCase() : pattern;
  const automaton = new GlobAutomaton(parseGlob(source, dialect, separators !== ""), separators);
  const glob: Glob = {
    pattern,
    size: automaton.size,
    matches: ignoreCase
      ? (subject) => automaton.matches(subject.toLowerCase())
      : (subject) => automaton.matches(subject),
  };
  cache.set(key, glob);
  if (cache.size > MAX_CACHED) {
    const oldest = cache.keys().next().value;
    if (oldest !== undefined) cache.delete(oldest);
  }
  return glob;
}
