import type { GitRepository } from "../disk/git-repository.js";
import { GitMergeRefusedError } from "../errors/git-error.js";
import { gitIn } from "./git-cli.js";
import { type UpdateRequest, updatedHead } from "./merge.js";
import { moveRef } from "./write.js";

type Repo = Pick<GitRepository, "gitdir">;

/** Whether the repository holds commit `sha`. */
export async function hasCommit(repo: Repo, sha: string): Promise<boolean> {
  if (!/^[0-9a-f]{40,64}$/.test(sha)) return false;
  return (await gitIn(repo, ["cat-file", "-e", `${sha}^{commit}`])).code === 0;
}

/**
 * Copies commit `sha` and the history it needs from the repository `from` into `to` (a fork and
 * its parent, on the same disk), unless `to` has it already. Only objects move: no ref of either
 * repository changes, and `from` is only read. Objects nothing refers to yet are kept by the
 * caller's next ref (`refs/pull/N/head`), or left for `git gc`.
 */
export async function fetchCommit(to: Repo, from: Repo, sha: string): Promise<void> {
  if (await hasCommit(to, sha)) return;
  if (!/^[0-9a-f]{40,64}$/.test(sha)) throw new Error(`not a commit id: ${sha}`);
  const result = await gitIn(to, [
    "-c",
    "gc.auto=0",
    "-c",
    "maintenance.auto=false",
    "fetch",
    "--quiet",
    "--no-tags",
    "--no-write-fetch-head",
    "--no-recurse-submodules",
    // A commit that is not a ref's tip is asked for by id, which upload-pack grants only when told.
    "--upload-pack=git -c uploadpack.allowAnySHA1InWant=true upload-pack",
    "--",
    from.gitdir,
    sha,
  ]);
  if (result.code !== 0) throw new Error(`git fetch of ${sha} failed: ${result.stderr.trim()}`);
}

/**
 * Brings a head branch that lives in another repository (a fork) up to date with its base, as
 * {@link updateBranchFromBase} does within one repository: the new head is written in `base`
 * (which holds both sides), copied into `head`, judged by `check` there, and the branch moved
 * only if it still points at the old head, under `head`'s write lock. Returns the new head.
 */
export async function updateForkBranchFromBase(
  base: GitRepository,
  head: GitRepository,
  req: UpdateRequest,
): Promise<string> {
  const next = await base.withWriteLock(() => updatedHead(base, req));
  if (next === req.headSha) return next;
  return head.withWriteLock(async () => {
    await fetchCommit(head, base, next);
    const refusal = await req.check?.(req.headSha, next);
    if (refusal) throw new GitMergeRefusedError(refusal);
    await moveRef(head, `refs/heads/${req.headBranch}`, next, req.headSha);
    return next;
  });
}
