import type { GitRepository } from "../disk/git-repository.js";
import { isoContext } from "./iso.js";
import { readCommitCached } from "./object-cache.js";
import type { ParsedCommit } from "./parse-objects.js";

/**
 * The most commits a short range is read over in process: a push or a pull request of a few
 * commits is read from the parsed commits kept in memory, without starting git (a process start
 * blocks a large server's event loop for milliseconds); anything longer is git's.
 */
export const MAX_SHORT_RANGE = 50;

const FULL_ID = /^(?:[0-9a-f]{40}|[0-9a-f]{64})$/;

/**
 * The commits `head` has that `base` lacks, newest first, when they are a straight line of at
 * most `max` commits ending on `base`: each has exactly one parent, and following first parents
 * from `head` reaches `base`. Then `base..head` is exactly that line, as `git rev-list` gives it.
 * Undefined for anything else (a merge on the way, a `base` that is not an ancestor, a longer
 * line, an object that is missing): the caller asks git.
 */
export async function straightRange(
  repo: GitRepository,
  base: string,
  head: string,
  max = MAX_SHORT_RANGE,
): Promise<ParsedCommit[] | undefined> {
  // Names (a branch, a short id) are git's to resolve.
  if (!FULL_ID.test(base) || !FULL_ID.test(head)) return undefined;
  const ctx = isoContext(repo);
  const line: ParsedCommit[] = [];
  let at = head;
  try {
    while (at !== base) {
      if (line.length >= max) return undefined;
      const commit = await readCommitCached(ctx, at);
      if (commit.commit.parent.length !== 1) return undefined;
      line.push(commit);
      at = commit.commit.parent[0] as string;
    }
  } catch {
    return undefined;
  }
  return line;
}
