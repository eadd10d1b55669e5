import git from "isomorphic-git";
import { GitNotFoundError } from "../errors/git-error.js";
import type { GitRepository } from "../storage/git-repository.js";
import { runGitOk } from "../util/run-git.js";
import { type CommitInfo, readCommitInfo, toCommitInfo } from "./commit-info.js";
import { type ChangedFile, diffTrees } from "./diff-trees.js";
import { isoContext } from "./iso.js";
import { headBranch, resolveCommit } from "./resolve.js";
import { normalizeRepoPath } from "./tree-entries.js";

/** Options of {@link listCommits}. */
export interface ListCommitsOptions {
  /** Where to start: a branch, tag or sha; the default branch when absent. */
  readonly sha?: string;
  /** Only commits that change this file or directory. */
  readonly path?: string;
  /** 1-based page number. */
  readonly page?: number;
  /** Page size. */
  readonly limit?: number;
}

/** One page of history and the length of the whole history (`X-Total-Count`). */
export interface CommitPage {
  readonly commits: readonly CommitInfo[];
  readonly hasMore: boolean;
  readonly total: number;
}

/** Commit counts remembered per start commit and path: the history behind a commit never changes. */
const MAX_COUNTS = 10_000;
const counts = new Map<string, number>();

/**
 * Lists commits newest first from a start ref, optionally only those touching `path`, with the
 * whole history's length (`X-Total-Count`, Forgejo's `rev-list --count`, remembered per start
 * commit and path). A path-limited page comes from native `rev-list --skip --max-count` (which
 * uses the commit-graph's Bloom filters and stops once the page is full); an unlimited one from
 * the in-process walk. Throws empty-repository on a repository without commits and
 * not-found for a missing ref.
 */
export async function listCommits(
  repo: GitRepository,
  options: ListCommitsOptions = {},
): Promise<CommitPage> {
  const ctx = isoContext(repo);
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const limit = Math.max(1, Math.floor(options.limit ?? 30));
  const start = await resolveCommit(ctx, options.sha ?? (await headBranch(ctx)));
  const path = options.path ? normalizeRepoPath(options.path) : "";
  const skip = (page - 1) * limit;
  const pathspec = path ? ["--", path] : [];
  const total = await countCommits(repo, start, path);
  let commits: CommitInfo[];
  if (path) {
    const listed = await revList(repo, [`--skip=${skip}`, `--max-count=${limit}`, start, ...pathspec]);
    commits = [];
    for (const sha of listed.split("\n").filter((line) => /^[0-9a-f]{40}$/.test(line))) {
      commits.push(await readCommitInfo(ctx, sha));
    }
  } else {
    // Without a path the page is the first commits of the walk: read in process from the cached
    // packs, without starting git (a process start costs more than reading a page of commits).
    const walked = await git.log({ ...ctx, ref: start, depth: skip + limit });
    commits = walked.slice(skip).map(toCommitInfo);
  }
  return { commits, hasMore: skip + commits.length < total, total };
}

async function countCommits(repo: GitRepository, start: string, path: string): Promise<number> {
  const key = `${repo.gitdir}\u0000${start}\u0000${path}`;
  const known = counts.get(key);
  if (known !== undefined) return known;
  const count = Number((await revList(repo, ["--count", start, ...(path ? ["--", path] : [])])).trim());
  counts.set(key, count);
  if (counts.size > MAX_COUNTS) {
    const oldest = counts.keys().next().value;
    if (oldest !== undefined) counts.delete(oldest);
  }
  return count;
}

async function revList(repo: GitRepository, args: readonly string[]): Promise<string> {
  return runGitOk(["--literal-pathspecs", "--git-dir", repo.gitdir, "rev-list", ...args]);
}

/**
 * Reads commits by their full ids (as history walks and listings give them), from the parsed
 * commits kept in memory: no ref resolution, no diff. Throws not-found for an id that is not a
 * commit of the repository.
 */
export async function getCommitInfos(repo: GitRepository, shas: readonly string[]): Promise<CommitInfo[]> {
  const ctx = isoContext(repo);
  const infos: CommitInfo[] = [];
  for (const sha of shas) {
    if (!/^[0-9a-f]{40}$/.test(sha)) throw new GitNotFoundError(`commit ${sha} does not exist`);
    infos.push(await readCommitInfo(ctx, sha));
  }
  return infos;
}

/** A commit with the files it changed against its first parent and the summed line stats. */
export interface CommitDetail extends CommitInfo {
  readonly files: readonly ChangedFile[];
  readonly stats: { readonly additions: number; readonly deletions: number; readonly total: number };
}

/**
 * Reads one commit named by a sha, short sha, branch or tag. With `files` (the default) it
 * also diffs against the first parent. Throws not-found or empty-repository.
 */
export async function getCommit(
  repo: GitRepository,
  ref: string,
  options: { readonly files?: boolean } = {},
): Promise<CommitDetail> {
  const ctx = isoContext(repo);
  const commit = await readCommitInfo(ctx, await resolveCommit(ctx, ref));
  if (options.files === false)
    return { ...commit, files: [], stats: { additions: 0, deletions: 0, total: 0 } };
  const parent = commit.parents[0] ? await readCommitInfo(ctx, commit.parents[0]) : undefined;
  const files = await diffTrees(ctx, parent?.tree, commit.tree);
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  return { ...commit, files, stats: { additions, deletions, total: additions + deletions } };
}
