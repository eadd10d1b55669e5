import { compileGlob } from "@kiln/git";

/** A compiled required-context pattern and what matching one context costs. */
export interface ContextMatcher {
  /** Whether `context` matches the pattern. */
  readonly matches: (context: string) => boolean;
  /**
   * The steps one match takes per character of the context: the pattern's tokens over all its
   * brace alternatives, or 0 for a pattern without glob syntax, which is compared as it is.
   */
  readonly size: number;
}

const GLOB_SYNTAX = /[*?[\]{}\\]/;

/**
 * The glob matcher of required status check contexts: gobwas/glob without separators, as Forgejo
 * compiles `status_check_contexts` (`*` crosses `/`), matched by Kiln's one linear matcher, whose cost is at most the
 * pattern's {@link ContextMatcher.size} times the context's length. Status checks reach the matcher
 * only through this function, so it can be pointed at another one in one place. Undefined for a
 * pattern the matcher cannot use.
 */
export function contextMatcher(pattern: string): ContextMatcher | undefined {
  const trimmed = pattern.trim();
  if (!GLOB_SYNTAX.test(trimmed)) return { matches: (context) => context === trimmed, size: 0 };
  try {
    const glob = compileGlob(trimmed);
    return { matches: (context) => glob.matches(context), size: glob.size };
  } catch {
    return undefined;
  }
}
