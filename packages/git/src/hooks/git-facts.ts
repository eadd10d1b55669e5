import { runGit } from "../util/run-git.js";
import type { RefUpdateFacts } from "./evaluate-push.js";
import { type RefUpdate, ZERO_SHA } from "./push-policy.js";

function splitNul(output: Buffer): string[] {
  return output
    .toString("utf8")
    .split(/[\0\n]/)
    .filter((part) => part.length > 0);
}

async function gitLines(cwd: string, args: string[]): Promise<string[] | undefined> {
  const result = await runGit(args, { cwd });
  return result.code === 0 ? splitNul(result.stdout) : undefined;
}

async function mustLines(cwd: string, args: string[]): Promise<string[]> {
  const lines = await gitLines(cwd, args);
  if (!lines) throw new Error(`git ${args.join(" ")} failed`);
  return lines;
}

function newCommitsArgs(update: RefUpdate): string[] {
  return update.oldSha === ZERO_SHA
    ? [update.newSha, "--not", "--all"]
    : [update.newSha, `^${update.oldSha}`];
}

/**
 * Computes ref update facts with the system git in the repository `cwd`. Inside a pre-receive
 * hook git's quarantine environment is inherited, so the pushed objects are visible.
 */
export function gitRefUpdateFacts(cwd: string): RefUpdateFacts {
  return {
    async isForcePush(update) {
      if (update.oldSha === ZERO_SHA || update.newSha === ZERO_SHA) return false;
      const lines = await mustLines(cwd, ["rev-list", "--max-count=1", update.oldSha, `^${update.newSha}`]);
      return lines.length > 0;
    },
    async changedFiles(update) {
      if (update.newSha === ZERO_SHA) return [];
      if (update.oldSha === ZERO_SHA) {
        return mustLines(cwd, [
          "log",
          "--format=",
          "--name-only",
          "-z",
          "--no-renames",
          ...newCommitsArgs(update),
        ]);
      }
      const base = ["diff", "--name-only", "-z", "--no-renames"];
      return (
        (await gitLines(cwd, [...base, `${update.oldSha}...${update.newSha}`])) ??
        mustLines(cwd, [...base, update.oldSha, update.newSha])
      );
    },
    async firstUnsignedCommit(update) {
      if (update.newSha === ZERO_SHA) return undefined;
      const shas = await mustLines(cwd, ["rev-list", "--reverse", ...newCommitsArgs(update)]);
      if (shas.length === 0) return undefined;
      const batch = await runGit(["cat-file", "--batch"], { cwd, input: `${shas.join("\n")}\n` });
      if (batch.code !== 0) throw new Error(`git cat-file failed: ${batch.stderr}`);
      return firstUnsignedInBatch(batch.stdout);
    },
  };
}

/** Walks `git cat-file --batch` output and returns the first commit whose headers hold no signature. */
export function firstUnsignedInBatch(output: Buffer): string | undefined {
  let offset = 0;
  while (offset < output.length) {
    const headerEnd = output.indexOf(10, offset);
    if (headerEnd < 0) break;
    const [sha, , sizeText] = output.subarray(offset, headerEnd).toString("utf8").split(" ");
    const size = Number(sizeText);
    const body = output.subarray(headerEnd + 1, headerEnd + 1 + size).toString("utf8");
    const headers = body.slice(0, Math.max(0, body.indexOf("\n\n")));
    if (!/^gpgsig(-sha256)? /m.test(headers)) return sha;
    offset = headerEnd + 1 + size + 1;
  }
  return undefined;
}
