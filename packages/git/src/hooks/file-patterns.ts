import picomatch from "picomatch";

/** A compiled list of file globs as Forgejo stores them (`;`-separated, case-insensitive). */
export interface FilePatterns {
  /** The individual globs after splitting and trimming; empty when none were set. */
  readonly globs: readonly string[];
  /** Whether `path` matches any glob. */
  matches(path: string): boolean;
}

/**
 * Parses a `;`-separated glob list (`protected_file_patterns` / `unprotected_file_patterns`).
 * Matching ignores case, like Forgejo, and `*` does not cross `/`.
 */
export function parseFilePatterns(list: string | undefined): FilePatterns {
  const globs = (list ?? "")
    .split(";")
    .map((glob) => glob.trim().toLowerCase())
    .filter((glob) => glob.length > 0);
  const matchers = globs.map((glob) => picomatch(glob, { dot: true }));
  return {
    globs,
    matches: (path) => {
      const lower = path.toLowerCase();
      return matchers.some((match) => match(lower));
    },
  };
}
