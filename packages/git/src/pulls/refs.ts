import type { GitRepository } from "../disk/git-repository.js";
import { commitsInBatch, firstUnsignedInBatch, type PushedCommit } from "../hooks/git-facts.js";
import { ZERO_SHA } from "../hooks/push-policy.js";
import type { BeforeRefMove } from "../objects/branches.js";
import { isoContext } from "../objects/iso.js";
import { refsChanged } from "../objects/repo-state.js";
import { readRef } from "../objects/resolve.js";
import { isValidBranchName } from "../util/ref-names.js";
import { gitIn, gitOk } from "./git-cli.js";

type Repo = Pick<GitRepository, "gitdir">;

/** The tip of a branch, read from disk now; undefined when there is no such branch (or the name is not one). */
export async function branchTip(repo: Repo, branch: string): Promise<string | undefined> {
  if (!isValidBranchName(branch)) return undefined;
  return readRef(isoContext(repo), `refs/heads/${branch}`);
}

/** The commit `refs/pull/<index>/head` holds: the last head Kiln saw of that pull request. */
export function pullHeadRef(index: number): string {
  return `refs/pull/${index}/head`;
}

/** What `refs/pull/<index>/head` points at, if it exists. */
export function pullHeadTip(repo: Repo, index: number): Promise<string | undefined> {
  return readRef(isoContext(repo), pullHeadRef(index));
}

/**
 * Points `refs/pull/<index>/head` at a commit, as Forgejo keeps it, so the head's commits stay
 * reachable (and fetchable) after its branch is gone.
 */
export async function setPullHead(repo: Repo, index: number, sha: string): Promise<void> {
  try {
    await gitOk(repo, ["update-ref", "-m", "kiln", pullHeadRef(index), sha]);
  } finally {
    refsChanged(repo.gitdir);
  }
}

/**
 * Deletes a branch if it still points at `expected`; false when it moved or is gone. `beforeMove`
 * is told the deletion before git makes it (a journal's hook).
 */
export async function deleteBranchAt(
  repo: Repo,
  branch: string,
  expected: string,
  beforeMove?: BeforeRefMove,
): Promise<boolean> {
  if (!isValidBranchName(branch)) return false;
  await beforeMove?.({ ref: `refs/heads/${branch}`, oldSha: expected, newSha: ZERO_SHA });
  try {
    const result = await gitIn(repo, ["update-ref", "-d", `refs/heads/${branch}`, expected]);
    return result.code === 0;
  } finally {
    refsChanged(repo.gitdir);
  }
}

/** The oldest commit of `base..head` that carries no signature, if any (what `require_signed_commits` refuses). */
export async function firstUnsignedCommit(
  repo: Repo,
  base: string,
  head: string,
): Promise<string | undefined> {
  const listed = await gitOk(repo, ["rev-list", "--reverse", `${base}..${head}`]);
  if (listed === "") return undefined;
  const batch = await gitIn(repo, ["cat-file", "--batch"], { input: `${listed}\n` });
  if (batch.code !== 0) throw new Error(`git cat-file failed: ${batch.stderr.trim()}`);
  return firstUnsignedInBatch(batch.stdout);
}

/** The commits of `base..head`, oldest first, with their raw objects (for signature verification). */
export async function commitObjectsBetween(repo: Repo, base: string, head: string): Promise<PushedCommit[]> {
  const listed = await gitOk(repo, ["rev-list", "--reverse", `${base}..${head}`]);
  if (listed === "") return [];
  const batch = await gitIn(repo, ["cat-file", "--batch"], { input: `${listed}\n` });
  if (batch.code !== 0) throw new Error(`git cat-file failed: ${batch.stderr.trim()}`);
  return commitsInBatch(batch.stdout);
}

/** The names of the files that differ between two commits. */
export async function changedPaths(repo: Repo, base: string, head: string): Promise<string[]> {
  const out = await gitOk(repo, ["diff", "--name-only", "--no-renames", "-z", base, head]);
  return out.split("\0").filter((name) => name !== "");
}
