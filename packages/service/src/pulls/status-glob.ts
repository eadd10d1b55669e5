import { compileGlob } from "@kiln/git";

/**
 * The glob matcher of required status check contexts: gobwas/glob without separators, as Forgejo
 * compiles `status_check_contexts` (`*` crosses `/`), by Kiln's one linear matcher. Undefined for
 * a pattern the matcher cannot use.
 */
export function contextMatcher(pattern: string): ((context: string) => boolean) | undefined {
  try {
    const glob = compileGlob(pattern.trim());
    return (context) => glob.matches(context);
  } catch {
    return undefined;
  }
}
