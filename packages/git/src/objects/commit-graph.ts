import type { GitRepository } from "../disk/git-repository.js";
import { runGit } from "../util/run-git.js";

/**
 * Brings the repository's commit-graph up to date, with changed-path Bloom filters: git then
 * answers history queries limited to a path (`commits?path=`, the last commit of each entry of a
 * listing) without diffing every commit's trees, an order of magnitude faster on long histories.
 * Incremental (`--split`): each call adds a layer for the new commits and git merges layers as
 * they accumulate. The graph is only an index: a missing or older one is never wrong, so failures
 * (a concurrent write holding git's lock) are reported, not fatal.
 */
export async function writeCommitGraph(repo: Pick<GitRepository, "gitdir">): Promise<void> {
  const result = await runGit([
    "--git-dir",
    repo.gitdir,
    "commit-graph",
    "write",
    "--reachable",
    "--changed-paths",
    "--split",
  ]);
  if (result.code !== 0) throw new Error(`git commit-graph write failed: ${result.stderr.trim()}`);
}
