import git from "isomorphic-git";
import type { GitRepository } from "../disk/git-repository.js";
import {
  GitAlreadyExistsError,
  GitDefaultBranchError,
  GitEmptyRepositoryError,
  GitInvalidArgumentError,
  GitNotFoundError,
} from "../errors/git-error.js";
import { type RefUpdate, ZERO_SHA } from "../hooks/push-policy.js";
import { isReadableRef, isValidBranchName } from "../util/ref-names.js";
import { type CommitInfo, readCommitInfo } from "./commit-info.js";
import { isoContext } from "./iso.js";
import { lookupRef, refSnapshot, refsChanged } from "./repo-state.js";
import { headBranch, isEmptyRepository, readRef, refValue, resolveCommit } from "./resolve.js";
import { compareAndSetRef } from "./update-ref.js";

export { isReadableRef, isValidBranchName } from "../util/ref-names.js";

/** A branch and its head commit. */
export interface BranchInfo {
  readonly name: string;
  readonly commit: CommitInfo;
  /** Whether this is the repository's default branch (HEAD). */
  readonly isDefault: boolean;
}

/** Lists all branches sorted by name, each with its head commit. */
export async function listBranches(repo: GitRepository): Promise<BranchInfo[]> {
  const ctx = isoContext(repo);
  const head = await headBranch(ctx);
  const snapshot = await refSnapshot(ctx.gitdir);
  const branches: BranchInfo[] = [];
  for (const ref of snapshot.names) {
    if (!ref.startsWith("refs/heads/")) continue;
    const name = ref.slice("refs/heads/".length);
    const sha = lookupRef(snapshot, ref);
    if (sha) branches.push({ name, commit: await readCommitInfo(ctx, sha), isDefault: name === head });
  }
  return branches;
}

/** Reads one branch; throws not-found when it does not exist. */
export async function getBranch(repo: GitRepository, name: string): Promise<BranchInfo> {
  const ctx = isoContext(repo);
  const sha = await refValue(ctx, `refs/heads/${name}`);
  if (!sha) throw new GitNotFoundError(`branch ${name} does not exist`);
  return { name, commit: await readCommitInfo(ctx, sha), isDefault: name === (await headBranch(ctx)) };
}

/** Options of {@link createBranch}: Forgejo's `old_branch_name` / `old_ref_name` become `from`. */
export interface CreateBranchOptions {
  readonly name: string;
  /** A branch, tag or commit sha to start from; the default branch when absent. */
  readonly from?: string;
  /** Told the move once it is decided, under the lock and before the ref moves (a journal's hook). */
  readonly beforeMove?: BeforeRefMove;
}

/** Told a ref move before git makes it: the intent a journal records so a crash cannot lose it. */
export type BeforeRefMove = (update: RefUpdate) => Promise<void>;

/** Told the moves of one operation (a rename's two) before git makes any of them. */
export type BeforeRefMoves = (updates: readonly RefUpdate[]) => Promise<void>;

/**
 * Creates a branch at the commit `from` names. Throws invalid-argument for a name git would
 * refuse ({@link isValidBranchName}: `HEAD`, `-x`, `a..b`, …), empty-repository on an empty
 * repository, not-found when the source does not exist, already-exists when the branch does.
 */
export async function createBranch(repo: GitRepository, options: CreateBranchOptions): Promise<BranchInfo> {
  if (!isValidBranchName(options.name))
    throw new GitInvalidArgumentError(`invalid branch name: ${options.name}`);
  return repo.withWriteLock(async () => {
    const ctx = isoContext(repo);
    if (await isEmptyRepository(ctx)) throw new GitEmptyRepositoryError();
    const source = await resolveCommit(ctx, options.from ?? (await headBranch(ctx)));
    if (await readRef(ctx, `refs/heads/${options.name}`)) {
      throw new GitAlreadyExistsError(`branch ${options.name} already exists`);
    }
    await options.beforeMove?.({ ref: `refs/heads/${options.name}`, oldSha: ZERO_SHA, newSha: source });
    await compareAndSetRef(ctx, `refs/heads/${options.name}`, undefined, source);
    return { name: options.name, commit: await readCommitInfo(ctx, source), isDefault: false };
  });
}

/**
 * Deletes a branch and resolves with the sha it pointed at. Throws default-branch for the
 * default branch and not-found for a missing one; protection rules are the caller's check.
 */
export async function deleteBranch(
  repo: GitRepository,
  name: string,
  beforeMove?: BeforeRefMove,
): Promise<string> {
  return repo.withWriteLock(async () => {
    const ctx = isoContext(repo);
    const sha = await readRef(ctx, `refs/heads/${name}`);
    if (!sha) throw new GitNotFoundError(`branch ${name} does not exist`);
    if (name === (await headBranch(ctx))) throw new GitDefaultBranchError(name);
    await beforeMove?.({ ref: `refs/heads/${name}`, oldSha: sha, newSha: ZERO_SHA });
    try {
      await git.deleteRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref: `refs/heads/${name}` });
    } finally {
      refsChanged(ctx.gitdir);
    }
    return sha;
  });
}

/**
 * Points HEAD at `branch`, making it the default branch. An existing branch qualifies (even one
 * a client pushed under a name git's `branch` command refuses); a branch that does not exist yet
 * only in an empty repository, and only under a name {@link isValidBranchName} allows.
 * Invalid names throw invalid-argument.
 */
export async function setDefaultBranch(repo: GitRepository, branch: string): Promise<void> {
  if (!isReadableRef(`refs/heads/${branch}`)) {
    throw new GitInvalidArgumentError(`invalid branch name: ${branch}`);
  }
  await repo.withWriteLock(async () => {
    const ctx = isoContext(repo);
    if (!(await readRef(ctx, `refs/heads/${branch}`))) {
      if (!isValidBranchName(branch)) throw new GitInvalidArgumentError(`invalid branch name: ${branch}`);
      if (!(await isEmptyRepository(ctx))) throw new GitNotFoundError(`branch ${branch} does not exist`);
    }
    await git.writeRef({
      fs: ctx.fs,
      gitdir: ctx.gitdir,
      ref: "HEAD",
      value: `refs/heads/${branch}`,
      symbolic: true,
      force: true,
    });
    refsChanged(ctx.gitdir);
  });
}

/** What {@link renameBranch} did: the commit the branch points at and whether it was the default. */
export interface RenamedBranch {
  readonly sha: string;
  readonly wasDefault: boolean;
}

/**
 * Renames a branch, keeping its commit (Forgejo's `git branch -m`): the new name is written, HEAD
 * follows when it pointed at the old name, then the old name goes, so a crash in between leaves
 * both names rather than neither. Not-found for a missing branch, already-exists when the new name
 * is taken, invalid-argument for a name `git branch` refuses. `beforeMove` is told both moves (the
 * old name deleted, the new one created) under the lock, before the first.
 */
export async function renameBranch(
  repo: GitRepository,
  from: string,
  to: string,
  beforeMove?: BeforeRefMoves,
): Promise<RenamedBranch> {
  if (!isValidBranchName(to)) throw new GitInvalidArgumentError(`invalid branch name: ${to}`);
  return repo.withWriteLock(async () => {
    const ctx = isoContext(repo);
    const sha = await readRef(ctx, `refs/heads/${from}`);
    if (!sha) throw new GitNotFoundError(`branch ${from} does not exist`);
    if (await readRef(ctx, `refs/heads/${to}`))
      throw new GitAlreadyExistsError(`branch ${to} already exists`);
    const wasDefault = (await headBranch(ctx)) === from;
    await beforeMove?.([
      { ref: `refs/heads/${from}`, oldSha: sha, newSha: ZERO_SHA },
      { ref: `refs/heads/${to}`, oldSha: ZERO_SHA, newSha: sha },
    ]);
    await compareAndSetRef(ctx, `refs/heads/${to}`, undefined, sha);
    try {
      if (wasDefault) {
        await git.writeRef({
          fs: ctx.fs,
          gitdir: ctx.gitdir,
          ref: "HEAD",
          value: `refs/heads/${to}`,
          symbolic: true,
          force: true,
        });
      }
      await git.deleteRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref: `refs/heads/${from}` });
    } finally {
      refsChanged(ctx.gitdir);
    }
    return { sha, wasDefault };
  });
}
