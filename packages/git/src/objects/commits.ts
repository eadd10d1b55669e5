import type { GitRepository } from "../disk/git-repository.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { runGitOk } from "../util/run-git.js";
import { type CommitChanges, commitChanges } from "./commit-changes.js";
import { type CommitInfo, readCommitInfo, toCommitInfo } from "./commit-info.js";
import { type IsoContext, isIsoNotFound, isoContext } from "./iso.js";
import { readCommitCached } from "./object-cache.js";
import type { ParsedCommit } from "./parse-objects.js";
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

/** Pages reaching deeper than this many commits come from `git rev-list`, which walks faster than reading one commit at a time. */
const MAX_IN_PROCESS_WALK = 500;

/** Commit counts remembered per start commit and path: the history behind a commit never changes. */
const MAX_COUNTS = 10_000;
const counts = new Map<string, number>();
/**
 * Pages of `git rev-list` remembered per start commit, path, offset and size, for the same reason:
 * a repeated page costs no process start (which blocks the event loop for milliseconds in a
 * large server process). At most this many pages of at most a page's ids each.
 */
const MAX_PAGES = 2_000;
const pages = new Map<string, readonly string[]>();

/**
 * Lists commits newest first from a start ref, optionally only those touching `path`, with the
 * whole history's length (`X-Total-Count`, Forgejo's `rev-list --count`, remembered per start
 * commit and path; a page that is not full gives it without counting). A path-limited page, or one deeper than {@link MAX_IN_PROCESS_WALK} commits,
 * comes from native `rev-list --skip --max-count` (which uses the commit-graph and its Bloom
 * filters and stops once the page is full); the first pages of an unlimited history from the
 * in-process walk (the same order: newest committer date first). Throws empty-repository on a repository without commits and
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
  let ids: readonly string[] | undefined;
  let walked: ParsedCommit[] | undefined;
  if (path || skip + limit > MAX_IN_PROCESS_WALK) ids = await revListPage(repo, start, path, skip, limit);
  // The first pages of an unlimited history are read in process, from the parsed commits kept in
  // memory, without starting git (a process start costs more than such a page).
  else walked = (await walkHistory(ctx, start, skip + limit)).slice(skip);
  const found = ids?.length ?? walked?.length ?? 0;
  // A page that is not full ends the history, so it gives the total without another walk.
  const total =
    found < limit && (found > 0 || skip === 0)
      ? rememberCount(repo, start, path, skip + found)
      : await countCommits(repo, start, path);
  const commits = ids
    ? // Asked at once, so a cold page costs one round trip of the object engine, not one per commit.
      await Promise.all(ids.map((sha) => readCommitInfo(ctx, sha)))
    : (walked ?? []).map(toCommitInfo);
  return { commits, hasMore: skip + commits.length < total, total };
}

/**
 * The newest `count` commits of `start`'s history in `git log`'s default order, read in process
 * from the parsed commits kept in memory (keep `count` small: each is one object read).
 */
export function recentHistory(repo: GitRepository, start: string, count: number): Promise<ParsedCommit[]> {
  return walkHistory(isoContext(repo), start, count);
}

/**
 * The first `count` commits of the history of `start`, newest committer date first (git log's
 * default order), from the parsed commits kept in memory. A parent that is not in the repository
 * (a shallow clone) ends its line of history.
 */
async function walkHistory(ctx: IsoContext, start: string, count: number): Promise<ParsedCommit[]> {
  const walked: ParsedCommit[] = [];
  const seen = new Set([start]);
  const queue = [await readCommitCached(ctx, start)];
  while (queue.length > 0 && walked.length < count) {
    let newest = 0;
    for (let index = 1; index < queue.length; index++) {
      const candidate = queue[index] as ParsedCommit;
      if (candidate.commit.committer.timestamp > (queue[newest] as ParsedCommit).commit.committer.timestamp) {
        newest = index;
      }
    }
    const [commit] = queue.splice(newest, 1) as [ParsedCommit];
    walked.push(commit);
    for (const parent of commit.commit.parent) {
      if (seen.has(parent)) continue;
      seen.add(parent);
      try {
        queue.push(await readCommitCached(ctx, parent));
      } catch (error) {
        if (!isIsoNotFound(error)) throw error;
      }
    }
  }
  return walked;
}

async function countCommits(repo: GitRepository, start: string, path: string): Promise<number> {
  const known = counts.get(countKey(repo, start, path));
  if (known !== undefined) return known;
  const count = Number((await revList(repo, ["--count", start, ...(path ? ["--", path] : [])])).trim());
  return rememberCount(repo, start, path, count);
}

function countKey(repo: GitRepository, start: string, path: string): string {
  return `${repo.gitdir}\u0000${start}\u0000${path}`;
}

function rememberCount(repo: GitRepository, start: string, path: string, count: number): number {
  counts.set(countKey(repo, start, path), count);
  if (counts.size > MAX_COUNTS) {
    const oldest = counts.keys().next().value;
    if (oldest !== undefined) counts.delete(oldest);
  }
  return count;
}

/** The ids of one page of `start`'s history (limited to `path` when given), remembered. */
async function revListPage(
  repo: GitRepository,
  start: string,
  path: string,
  skip: number,
  limit: number,
): Promise<readonly string[]> {
  const key = `${repo.gitdir}\u0000${start}\u0000${path}\u0000${skip}\u0000${limit}`;
  const known = pages.get(key);
  if (known) return known;
  const args = [`--skip=${skip}`, `--max-count=${limit}`, start, ...(path ? ["--", path] : [])];
  const listed = (await revList(repo, args)).split("\n").filter((line) => /^[0-9a-f]{40}$/.test(line));
  pages.set(key, listed);
  if (pages.size > MAX_PAGES) {
    const oldest = pages.keys().next().value;
    if (oldest !== undefined) pages.delete(oldest);
  }
  return listed;
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
export interface CommitDetail extends CommitInfo, CommitChanges {}

/**
 * Reads one commit named by a sha, short sha, branch or tag. With `files` (the default) it
 * also diffs against the first parent (remembered per commit). Throws not-found or
 * empty-repository. The result is shared: callers must not modify it.
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
  return { ...commit, ...(await commitChanges(ctx, commit)) };
}

/** The full sha of the commit a name (sha, short sha, branch, tag, full ref) stands for; not-found otherwise. */
export async function resolveCommitSha(repo: GitRepository, name: string): Promise<string> {
  return resolveCommit(isoContext(repo), name);
}
