import type { GitRepository } from "../disk/git-repository.js";
import { gitIn, gitOk } from "./git-cli.js";

type Repo = Pick<GitRepository, "gitdir">;

/** The best common ancestor of two commits (`git merge-base`), or undefined for unrelated histories. */
export async function mergeBase(repo: Repo, a: string, b: string): Promise<string | undefined> {
  const result = await gitIn(repo, ["merge-base", a, b]);
  if (result.code === 1) return undefined;
  if (result.code !== 0) throw new Error(`git merge-base failed: ${result.stderr.trim()}`);
  return result.stdout.toString("utf8").trim();
}

/** Whether `ancestor` is reachable from `descendant` (a commit is its own ancestor). */
export async function isAncestor(repo: Repo, ancestor: string, descendant: string): Promise<boolean> {
  const result = await gitIn(repo, ["merge-base", "--is-ancestor", ancestor, descendant]);
  if (result.code === 0) return true;
  if (result.code === 1) return false;
  throw new Error(`git merge-base --is-ancestor failed: ${result.stderr.trim()}`);
}

/** How many commits `head` has that `base` lacks, and the reverse (`rev-list --left-right --count`). */
export async function aheadBehind(
  repo: Repo,
  base: string,
  head: string,
): Promise<{ ahead: number; behind: number }> {
  const out = await gitOk(repo, ["rev-list", "--left-right", "--count", `${base}...${head}`]);
  const [behind, ahead] = out.split(/\s+/).map(Number);
  return { ahead: ahead ?? 0, behind: behind ?? 0 };
}

/**
 * The commits `git rebase <onto>` would replay from `head`, in its order (topological, oldest
 * first): those not reachable
 * from `onto`, merges left out, and those whose change `onto` already has (same patch id) skipped.
 */
export async function commitsToReplay(repo: Repo, onto: string, head: string): Promise<string[]> {
  const out = await gitOk(repo, [
    "rev-list",
    "--reverse",
    "--topo-order",
    "--no-merges",
    "--right-only",
    "--cherry-pick",
    `${onto}...${head}`,
  ]);
  return out === "" ? [] : out.split("\n");
}
