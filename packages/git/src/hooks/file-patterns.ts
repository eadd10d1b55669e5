import { compileGlob, type Glob, GlobSyntaxError } from "../glob/glob.js";

/** The most globs one `;`-separated list may hold; more is refused with 422. */
export const MAX_FILE_PATTERNS = 100;
/** The longest glob of such a list; a longer one is refused with 422. */
export const MAX_FILE_PATTERN_LENGTH = 255;

/** A compiled list of file globs as Forgejo stores them (`;`-separated, case-insensitive). */
export interface FilePatterns {
  /** The individual globs after splitting and trimming; empty when none were set. */
  readonly globs: readonly string[];
  /** Whether `path` matches any glob. */
  matches(path: string): boolean;
}

/** The globs of a list: split at `;`, trimmed and lower-cased, empty ones dropped (Forgejo's getFilePatterns). */
export function splitFilePatterns(list: string | undefined): string[] {
  return (list ?? "")
    .toLowerCase()
    .split(";")
    .map((glob) => glob.trim())
    .filter((glob) => glob.length > 0);
}

/**
 * Why a list cannot be stored: more than {@link MAX_FILE_PATTERNS} globs or one longer than
 * {@link MAX_FILE_PATTERN_LENGTH}; undefined when it can. (An invalid glob is stored and skipped
 * when matching, as Forgejo does.)
 */
export function filePatternsProblem(list: string | undefined): string | undefined {
  const globs = splitFilePatterns(list);
  if (globs.length > MAX_FILE_PATTERNS) return `at most ${MAX_FILE_PATTERNS} patterns are allowed`;
  if (globs.some((glob) => glob.length > MAX_FILE_PATTERN_LENGTH)) {
    return `a pattern may have at most ${MAX_FILE_PATTERN_LENGTH} characters`;
  }
  return undefined;
}

const lists = new Map<string, FilePatterns>();
/** Compiled lists kept; the least recently used beyond this is dropped. */
const MAX_CACHED_LISTS = 512;

/**
 * Parses a `;`-separated glob list (`protected_file_patterns` / `unprotected_file_patterns`) as
 * Forgejo's `glob.Compile(expr, '.', '/')` reads it: case-insensitive, `*` and `?` stop at `.` and
 * `/`, `**` crosses both; invalid globs are skipped. Matched by Kiln's linear glob matcher and
 * compiled once per list text; a stored list beyond the limits counts only its first
 * {@link MAX_FILE_PATTERNS} globs of at most {@link MAX_FILE_PATTERN_LENGTH} characters.
 */
export function parseFilePatterns(list: string | undefined): FilePatterns {
  const text = list ?? "";
  const known = lists.get(text);
  if (known) return known;
  const globs = splitFilePatterns(text)
    .filter((glob) => glob.length <= MAX_FILE_PATTERN_LENGTH)
    .slice(0, MAX_FILE_PATTERNS);
  const matchers: Glob[] = [];
  for (const glob of globs) {
    try {
      matchers.push(compileGlob(glob, { separators: "./", ignoreCase: true }));
    } catch (error) {
      if (!(error instanceof GlobSyntaxError)) throw error;
    }
  }
  const parsed: FilePatterns = {
    globs,
    matches: (path) => matchers.some((matcher) => matcher.matches(path)),
  };
  lists.set(text, parsed);
  if (lists.size > MAX_CACHED_LISTS) {
    const oldest = lists.keys().next().value;
    if (oldest !== undefined) lists.delete(oldest);
  }
  return parsed;
}
