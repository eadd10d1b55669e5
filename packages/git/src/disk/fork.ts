import { rm } from "node:fs/promises";
import { GitNotFoundError } from "../errors/git-error.js";

/** The fork's push policy (branch protection, quota) refused a sync; the message says why. */
export class GitPushRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "GitPushRefusedError";
  }
}

import type { BeforeRefMove } from "../objects/branches.js";
import { gitIn, gitOk } from "../pulls/git-cli.js";
import { runGitOk } from "../util/run-git.js";
import type { GitRepository } from "./git-repository.js";
import type { RepoStore } from "./repo-store.js";

/**
 * Builds the bare repository of a fork: `git clone --bare --local` of the parent into a temporary
 * directory of the store (so on the same file system), then adopted as `<owner>/<name>` with
 * Kiln's hooks. A local clone hard-links the parent's object files instead of copying them, so
 * the objects are shared on disk, yet each repository owns its files: deleting, moving or
 * repacking the parent never breaks the fork (no `objects/info/alternates`). The parent is read
 * under its write lock, so a concurrent push cannot hand the clone a ref without its objects.
 */
export async function cloneFork(
  store: RepoStore,
  parent: { owner: string; name: string },
  fork: { owner: string; name: string },
): Promise<GitRepository> {
  const source = await store.open(parent.owner, parent.name);
  const temp = await store.tempDir();
  try {
    await source.withWriteLock(() =>
      runGitOk(["clone", "--bare", "--local", "--quiet", "--template=", "--", source.gitdir, temp]),
    );
    // The clone remembers where it came from; a fork has no remote (the parent is found by id).
    await gitIn({ gitdir: temp }, ["config", "--remove-section", "remote.origin"]);
    return await store.adopt(temp, fork.owner, fork.name);
  } catch (error) {
    await rm(temp, { recursive: true, force: true });
    throw error;
  }
}

/** Where a branch of a fork stands against the same branch of its parent (Forgejo's SyncForkInfo). */
export interface ForkBranchState {
  /** The fork's tip of the branch. */
  readonly forkCommit: string;
  /** The parent's tip of the branch; empty when the parent has no such branch. */
  readonly baseCommit: string;
  /** Whether the fork's tip is in the parent's branch, so the fork can be fast-forwarded. */
  readonly allowed: boolean;
  /** Commits of the parent's branch the fork lacks (0 unless allowed). */
  readonly commitsBehind: number;
}

async function branchTip(repo: Pick<GitRepository, "gitdir">, branch: string): Promise<string | undefined> {
  const result = await gitIn(repo, ["rev-parse", "--verify", "--quiet", `refs/heads/${branch}^{commit}`]);
  return result.code === 0 ? result.stdout.toString("utf8").trim() : undefined;
}

/**
 * Compares a branch of the fork with the parent's: allowed when both exist, differ, and the fork's
 * tip is an ancestor of the parent's (as Forgejo asks: the fork's commit is on the parent's branch).
 * Throws not-found when the fork has no such branch.
 */
export async function forkBranchState(
  parent: Pick<GitRepository, "gitdir">,
  fork: Pick<GitRepository, "gitdir">,
  branch: string,
): Promise<ForkBranchState> {
  const forkCommit = await branchTip(fork, branch);
  if (!forkCommit) throw new GitNotFoundError(`branch does not exist [name: ${branch}]`);
  const baseCommit = await branchTip(parent, branch);
  const none = { forkCommit, baseCommit: baseCommit ?? "", allowed: false, commitsBehind: 0 };
  if (!baseCommit || baseCommit === forkCommit) return none;
  const ancestor = await gitIn(parent, ["merge-base", "--is-ancestor", forkCommit, baseCommit]);
  if (ancestor.code !== 0) return none;
  const behind = await gitOk(parent, ["rev-list", "--count", `${forkCommit}..${baseCommit}`]);
  return { forkCommit, baseCommit, allowed: true, commitsBehind: Number(behind) };
}

/**
 * Fast-forwards the fork's branch to the parent's tip `baseCommit`: fetches the parent's branch
 * into the fork (objects only) and moves the ref only if it still points at `forkCommit`, under the
 * fork's write lock. `check` judges the update as the fork's pre-receive hook would (it throws
 * GitPushRefusedError with its message); `beforeMove` is told the update it allowed, before the
 * ref moves (a journal's hook). Resolves with the ref update, or undefined when the ref moved
 * meanwhile.
 */
export async function fastForwardFork(
  parent: Pick<GitRepository, "gitdir">,
  fork: GitRepository,
  branch: string,
  forkCommit: string,
  baseCommit: string,
  check?: (update: { ref: string; oldSha: string; newSha: string }) => Promise<string | undefined>,
  beforeMove?: BeforeRefMove,
): Promise<{ ref: string; oldSha: string; newSha: string } | undefined> {
  return fork.withWriteLock(async () => {
    const ref = `refs/heads/${branch}`;
    await gitOk(fork, ["fetch", "--quiet", "--no-tags", "--no-write-fetch-head", "--", parent.gitdir, ref]);
    // The push policy of the fork's branch, with the new objects in place (as a pre-receive hook).
    const refusal = await check?.({ ref, oldSha: forkCommit, newSha: baseCommit });
    if (refusal !== undefined) throw new GitPushRefusedError(refusal);
    await beforeMove?.({ ref, oldSha: forkCommit, newSha: baseCommit });
    const moved = await gitIn(fork, ["update-ref", ref, baseCommit, forkCommit]);
    if (moved.code !== 0) return undefined;
    return { ref, oldSha: forkCommit, newSha: baseCommit };
  });
}
