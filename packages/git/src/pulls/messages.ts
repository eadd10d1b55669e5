import type { GitRepository } from "../disk/git-repository.js";
import { recentHistory } from "../objects/commits.js";
import type { ParsedCommit } from "../objects/parse-objects.js";
import { MAX_SHORT_RANGE, straightRange } from "../objects/short-history.js";
import { gitIn } from "./git-cli.js";

/** A commit's id and full message. */
export interface CommitMessage {
  readonly sha: string;
  readonly message: string;
}

/**
 * The bytes of `git log` output read for one call: messages compress well, so a push of a few
 * kilobytes can hold commits whose messages are gigabytes; past this, older commits are left out
 * and the last message read is cut.
 */
export const MAX_MESSAGE_BYTES = 4 * 1024 * 1024;

/**
 * The messages of the newest `limit` commits of `head` that `since` lacks (all of `head`'s
 * history without it), newest first, from one `git log` read up to {@link MAX_MESSAGE_BYTES}.
 * Unknown commits give none.
 */
export async function commitMessages(
  repo: GitRepository,
  head: string,
  options: { readonly since?: string; readonly limit: number },
): Promise<CommitMessage[]> {
  const ids = options.since ? [options.since, head] : [head];
  if (!ids.every((id) => /^[0-9a-f]{40,64}$/.test(id))) return [];
  const short = await shortMessages(repo, head, options);
  if (short) return short;
  const range = options.since ? `${options.since}..${head}` : head;
  const result = await gitIn(
    repo,
    ["log", "-z", "--format=%H%n%B", `--max-count=${Math.max(0, Math.floor(options.limit))}`, range, "--"],
    { maxStdout: MAX_MESSAGE_BYTES },
  );
  if (result.code !== 0 && !result.truncated) return [];
  const out: CommitMessage[] = [];
  for (const record of result.stdout.toString("utf8").split("\0")) {
    const newline = record.indexOf("\n");
    if (newline !== 40 && newline !== 64) continue;
    // Trailing newlines dropped by a loop: `/\n+$/` backtracks quadratically over a message of newlines.
    let end = record.length;
    while (end > newline + 1 && record.charCodeAt(end - 1) === 10) end--;
    out.push({ sha: record.slice(0, newline), message: record.slice(newline + 1, end) });
  }
  return out;
}

/**
 * {@link commitMessages} read in process when the history asked for is short: the newest
 * commits of a new branch, or a straight line of commits pushed onto `since` (most pushes).
 * Undefined otherwise, or past {@link MAX_MESSAGE_BYTES}: `git log` answers then.
 */
async function shortMessages(
  repo: GitRepository,
  head: string,
  options: { readonly since?: string; readonly limit: number },
): Promise<CommitMessage[] | undefined> {
  const limit = Math.max(0, Math.floor(options.limit));
  let commits: ParsedCommit[] | undefined;
  try {
    if (options.since === undefined) {
      if (limit > MAX_SHORT_RANGE) return undefined;
      commits = await recentHistory(repo, head, limit);
    } else {
      commits = await straightRange(repo, options.since, head, MAX_SHORT_RANGE);
      commits = commits?.slice(0, limit);
    }
  } catch {
    return undefined;
  }
  if (!commits) return undefined;
  let bytes = 0;
  const out: CommitMessage[] = [];
  for (const { oid, commit } of commits) {
    bytes += commit.message.length;
    if (bytes > MAX_MESSAGE_BYTES) return undefined;
    let end = commit.message.length;
    while (end > 0 && commit.message.charCodeAt(end - 1) === 10) end--;
    out.push({ sha: oid, message: commit.message.slice(0, end) });
  }
  return out;
}
