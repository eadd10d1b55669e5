import type { GitRepository } from "../storage/git-repository.js";
import { gitIn } from "./git-cli.js";

/** A commit's id and full message. */
export interface CommitMessage {
  readonly sha: string;
  readonly message: string;
}

/**
 * The messages of the newest `limit` commits of `head` that `since` lacks (all of `head`'s
 * history without it), newest first, from one `git log`. Unknown commits give none.
 */
export async function commitMessages(
  repo: Pick<GitRepository, "gitdir">,
  head: string,
  options: { readonly since?: string; readonly limit: number },
): Promise<CommitMessage[]> {
  const ids = options.since ? [options.since, head] : [head];
  if (!ids.every((id) => /^[0-9a-f]{40,64}$/.test(id))) return [];
  const range = options.since ? `${options.since}..${head}` : head;
  const result = await gitIn(repo, [
    "log",
    "-z",
    "--format=%H%n%B",
    `--max-count=${Math.max(0, Math.floor(options.limit))}`,
    range,
    "--",
  ]);
  if (result.code !== 0) return [];
  const out: CommitMessage[] = [];
  for (const record of result.stdout.toString("utf8").split("\0")) {
    const newline = record.indexOf("\n");
    if (newline !== 40 && newline !== 64) continue;
    out.push({ sha: record.slice(0, newline), message: record.slice(newline + 1).replace(/\n+$/, "") });
  }
  return out;
}
