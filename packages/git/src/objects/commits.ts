import { spawn } from "node:child_process";
import type { GitRepository } from "../storage/git-repository.js";
import { type CommitInfo, readCommitInfo } from "./commit-info.js";
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

/**
 * Lists commits newest first from a start ref, optionally only those touching `path`: one native
 * `git rev-list` walk gives both the page's commits (in git's own order) and the total count, as
 * Forgejo's `rev-list --count`. Throws empty-repository on a repository without commits and
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
  const { total, shas } = await revList(repo, start, path, skip, limit);
  const commits: CommitInfo[] = [];
  for (const sha of shas) commits.push(await readCommitInfo(ctx, sha));
  return { commits, hasMore: skip + shas.length < total, total };
}

/** Walks `git rev-list <start> [-- path]`, counting every commit and keeping `limit` after `skip`. */
function revList(
  repo: GitRepository,
  start: string,
  path: string,
  skip: number,
  limit: number,
): Promise<{ total: number; shas: string[] }> {
  return new Promise((resolve, reject) => {
    const args = [
      "--literal-pathspecs",
      "--git-dir",
      repo.gitdir,
      "rev-list",
      start,
      ...(path ? ["--", path] : []),
    ];
    const child = spawn("git", args, { stdio: ["ignore", "pipe", "pipe"] });
    const shas: string[] = [];
    let total = 0;
    let pending = "";
    let stderr = "";
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (chunk: string) => {
      pending += chunk;
      const lines = pending.split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (!line) continue;
        if (total >= skip && shas.length < limit) shas.push(line);
        total++;
      }
    });
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      stderr += chunk;
    });
    child.on("error", reject);
    child.on("close", (code) => {
      if (code === 0) resolve({ total, shas });
      else reject(new Error(`git rev-list failed (${code}): ${stderr.trim()}`));
    });
  });
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
