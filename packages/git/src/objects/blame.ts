import type { GitRepository } from "../disk/git-repository.js";
import { GitBusyError, GitNotFoundError } from "../errors/git-error.js";
import { runGit } from "../util/run-git.js";

/** A run of consecutive lines of a file that one commit last changed. */
export interface BlameHunk {
  /** The commit that last changed these lines. */
  readonly sha: string;
  /** The first line of the run in the file as it is (1-based), and how many lines the run has. */
  readonly line: number;
  readonly count: number;
}

/** One commit a blame names, with what its first mention in git's porcelain output says. */
export interface BlameCommit {
  readonly sha: string;
  readonly authorName: string;
  /** Seconds since the Unix epoch. */
  readonly authorTime: number;
  readonly summary: string;
}

/** What {@link blame} found: the runs in file order and the commits they name. */
export interface BlameResult {
  readonly hunks: readonly BlameHunk[];
  readonly commits: ReadonlyMap<string, BlameCommit>;
}

const HEADER = /^([0-9a-f]{40,64}) \d+ (\d+)(?: (\d+))?$/;

/**
 * Who last changed each line of `path` at `rev` (`git blame --porcelain`), as runs of lines.
 * `maxOutput` bounds what is read of git's output and `signal` stops a slow blame; a missing path
 * or revision is not-found.
 */
export async function blame(
  repo: Pick<GitRepository, "gitdir">,
  rev: string,
  path: string,
  options: { readonly maxOutput?: number; readonly signal?: AbortSignal } = {},
): Promise<BlameResult> {
  if (rev.startsWith("-")) throw new GitNotFoundError(`revision ${rev} does not exist`);
  let result: Awaited<ReturnType<typeof runGit>>;
  try {
    result = await runGit(["--git-dir", repo.gitdir, "blame", "--porcelain", rev, "--", path], {
      ...(options.maxOutput !== undefined ? { maxStdout: options.maxOutput } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (err) {
    // A blame stopped by its deadline: the server's git work was too slow for it (503).
    if (options.signal?.aborted) throw new GitBusyError(`blame of ${path} took too long`);
    throw err;
  }
  if (result.code !== 0 && !result.truncated)
    throw new GitNotFoundError(`blame of ${path} at ${rev}: ${result.stderr.trim()}`);
  const hunks: BlameHunk[] = [];
  const commits = new Map<string, BlameCommit>();
  let current: { sha: string; authorName: string; authorTime: number; summary: string } | undefined;
  for (const line of result.stdout.toString("utf8").split("\n")) {
    if (line.startsWith("\t")) continue;
    const header = HEADER.exec(line);
    if (header) {
      const sha = header[1] ?? "";
      const start = Number(header[2]);
      // The first line of each run carries the run's length; the run's other lines repeat the sha.
      if (header[3] !== undefined) hunks.push({ sha, line: start, count: Number(header[3]) });
      current = commits.has(sha) ? undefined : { sha, authorName: "", authorTime: 0, summary: "" };
      if (current) commits.set(sha, current);
      continue;
    }
    if (!current) continue;
    const space = line.indexOf(" ");
    const key = space < 0 ? line : line.slice(0, space);
    const value = space < 0 ? "" : line.slice(space + 1);
    if (key === "author") current.authorName = value;
    else if (key === "author-time") current.authorTime = Number(value) || 0;
    else if (key === "summary") current.summary = value;
  }
  return { hunks, commits };
}
