import type { Repository } from "@kiln/domain";
import { aheadBehind } from "@kiln/git";
import type { RepoService } from "../repos/repo-service.js";

/** How far a branch is from the default branch: commits it has that the default lacks, and the reverse. */
export interface Divergence {
  readonly ahead: number;
  readonly behind: number;
}

/** Most branches compared at once: each is one `git rev-list`, so a page's cost stays bounded. */
export const MAX_DIVERGENCE_BRANCHES = 50;

/**
 * Each branch's divergence from the repository's default branch (Forgejo's branches page shows
 * it beside every branch), by branch head sha. Branches whose comparison fails (a ref that moved
 * away meanwhile) are left out; beyond {@link MAX_DIVERGENCE_BRANCHES} none is compared.
 */
export async function branchDivergence(
  repos: Pick<RepoService, "git">,
  repo: Repository,
  defaultHead: string,
  heads: readonly string[],
): Promise<ReadonlyMap<string, Divergence>> {
  const out = new Map<string, Divergence>();
  if (heads.length > MAX_DIVERGENCE_BRANCHES) return out;
  const git = await repos.git(repo);
  for (const head of new Set(heads)) {
    const found = await aheadBehind(git, defaultHead, head).catch(() => undefined);
    if (found) out.set(head, found);
  }
  return out;
}
