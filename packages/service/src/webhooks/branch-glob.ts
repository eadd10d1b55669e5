import { InvalidArgumentError } from "@kiln/domain";
import { compileGlob, type Glob, GlobSyntaxError } from "@kiln/git";

/**
 * Compiles a branch filter as Forgejo does with gobwas/glob without separators: `*` matches any
 * run of characters (slashes included), `?` one character, `[abc]`/`[a-z]`/`[!abc]` a class,
 * `{a,b}` alternatives (nestable), `\` escapes. Kiln's linear glob matcher does the matching
 * (compiled once per filter text), so no filter can stall delivery. Invalid syntax is 422.
 */
export function compileBranchGlob(pattern: string): Glob {
  try {
    return compileGlob(pattern);
  } catch (error) {
    if (error instanceof GlobSyntaxError) throw new InvalidArgumentError(`Invalid branch filter: ${pattern}`);
    throw error;
  }
}

/** Forgejo's checkBranch: an empty filter or `*` passes every branch. */
export function branchMatches(filter: string, branch: string): boolean {
  if (filter === "" || filter === "*") return true;
  try {
    return compileBranchGlob(filter).matches(branch);
  } catch {
    return false;
  }
}
