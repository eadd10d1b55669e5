import { compileTagPattern, tagPatternMatches } from "@kiln/git";

/**
 * The glob matcher of required status check contexts: gobwas/glob without separators, as Forgejo
 * compiles `status_check_contexts` (`*` crosses `/`), matched in linear time. Status checks reach
 * the matcher only through this function, so it can be pointed at another one in one place.
 * Undefined for a pattern the matcher cannot use.
 */
export function contextMatcher(pattern: string): ((context: string) => boolean) | undefined {
  try {
    compileTagPattern(pattern.trim());
  } catch {
    return undefined;
  }
  return (context) => tagPatternMatches(pattern, context);
}
