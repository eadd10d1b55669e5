import type { GitRepository } from "../disk/git-repository.js";
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
  repo: Pick<GitRepository, "gitdir">,
  head: string,
  options: { readonly since?: string; readonly limit: number },
): Promise<CommitMessage[]> {
  const ids = options.since ? [options.since, head] : [head];
  if (!ids.every((id) => /^[0-9a-f]{40,64}$/.test(id))) return [];
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
