import { readdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { withoutMachineConfig } from "../util/git-env.js";
import { runGit } from "../util/run-git.js";
import type { RefUpdateFacts } from "./evaluate-push.js";
import { type RefUpdate, ZERO_SHA } from "./push-policy.js";

/** A pushed commit as read from the quarantine: its id and raw object. */
export interface PushedCommit {
  readonly sha: string;
  readonly object: Buffer;
}

/** Answers, for commits in order, the first whose signature the server cannot verify. */
export type CommitSignatureCheck = (commits: readonly PushedCommit[]) => Promise<string | undefined>;

/** Options of {@link gitRefUpdateFacts}. */
export interface GitFactsOptions {
  /** git's environment; the server's without the machine configuration when absent. */
  readonly env?: NodeJS.ProcessEnv;
  /**
   * Verifies the signatures of signed new commits; without it a commit only needs to carry one.
   * A check that fails verifies nothing: the first commit is then the unverified one.
   */
  readonly verifyCommits?: CommitSignatureCheck;
}

/** The id of git's empty tree, the "before" of a history with no parent. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** Git's output split into lines, or into NUL-terminated fields for `-z` output (a path may hold `\n`). */
function splitOutput(output: Buffer, nul: boolean): string[] {
  return output
    .toString("utf8")
    .split(nul ? "\0" : /[\0\n]/)
    .filter((part) => part.length > 0);
}

async function gitLines(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<string[] | undefined> {
  const result = await runGit(args, { cwd, env });
  return result.code === 0 ? splitOutput(result.stdout, args.includes("-z")) : undefined;
}

async function mustLines(cwd: string, env: NodeJS.ProcessEnv, args: string[]): Promise<string[]> {
  const lines = await gitLines(cwd, env, args);
  if (!lines) throw new Error(`git ${args.join(" ")} failed`);
  return lines;
}

/** Whether `dir` holds a file anywhere below it (a loose ref, or a lock being written). */
async function holdsAnyFile(dir: string): Promise<boolean> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) return true;
    if (await holdsAnyFile(join(dir, entry.name))) return true;
  }
  return false;
}

/**
 * Whether the bare repository at `gitdir` has no ref at all, read from its files: no loose ref
 * under `refs/`, no line in `packed-refs`. Any doubt (another layout, an unreadable file, a
 * reftable repository, whose `refs/heads` is a file) answers false.
 */
async function holdsNoRefs(gitdir: string): Promise<boolean> {
  try {
    const packed = await readFile(join(gitdir, "packed-refs"), "utf8").catch(
      (error: NodeJS.ErrnoException) => {
        if (error.code === "ENOENT") return "";
        throw error;
      },
    );
    if (packed.split("\n").some((line) => line.length > 0 && !line.startsWith("#"))) return false;
    return !(await holdsAnyFile(join(gitdir, "refs")));
  } catch {
    return false;
  }
}

function newCommitsArgs(update: RefUpdate): string[] {
  return update.oldSha === ZERO_SHA
    ? [update.newSha, "--not", "--all"]
    : [update.newSha, `^${update.oldSha}`];
}

/**
 * Computes ref update facts with the system git in the repository `cwd`. For a push being
 * received, `env` carries git's quarantine variables, so the pushed objects are visible.
 */
export function gitRefUpdateFacts(cwd: string, options: GitFactsOptions = {}): RefUpdateFacts {
  const env = options.env ?? withoutMachineConfig();
  const git = (args: string[]) => mustLines(cwd, env, args);
  return {
    async isForcePush(update) {
      if (update.oldSha === ZERO_SHA || update.newSha === ZERO_SHA) return false;
      const lines = await git(["rev-list", "--max-count=1", update.oldSha, `^${update.newSha}`]);
      return lines.length > 0;
    },
    async changedFiles(update) {
      if (update.newSha === ZERO_SHA) return [];
      const base = ["diff", "--name-only", "-z", "--no-renames"];
      if (update.oldSha === ZERO_SHA) {
        // A new branch: diff from where its new commits fork off existing history (the empty
        // tree for unrelated history), one tree diff however many commits are new. A repository
        // without refs (a first push) has nothing to fork off: no walk over the whole history.
        if (await holdsNoRefs(cwd)) return git([...base, EMPTY_TREE, update.newSha]);
        // One walk gives the oldest new commit with its parents (`<oldest> <parent>…`).
        const [oldest] = await git([
          "rev-list",
          "--reverse",
          "--topo-order",
          "--parents",
          ...newCommitsArgs(update),
        ]);
        if (!oldest) return [];
        const fork = oldest.split(" ")[1];
        return git([...base, fork ?? EMPTY_TREE, update.newSha]);
      }
      // The branch's tree before against after (Forgejo's GetFilesChangedBetween), not what the
      // new commits change since the merge base: a force push that drops someone's commits
      // changes the files those commits changed.
      return git([...base, update.oldSha, update.newSha]);
    },
    async firstUnsignedCommit(update) {
      if (update.newSha === ZERO_SHA) return undefined;
      const shas = await git(["rev-list", "--reverse", ...newCommitsArgs(update)]);
      if (shas.length === 0) return undefined;
      const batch = await runGit(["cat-file", "--batch"], {
        cwd,
        env,
        input: `${shas.join("\n")}\n`,
      });
      if (batch.code !== 0) throw new Error(`git cat-file failed: ${batch.stderr}`);
      const unsigned = firstUnsignedInBatch(batch.stdout);
      if (unsigned) return unsigned;
      // Every commit is signed; the server, which holds the keys, says whether each signature verifies.
      const verify = options.verifyCommits;
      if (!verify) return undefined;
      const commits = commitsInBatch(batch.stdout);
      return verify(commits).catch(() => commits[0]?.sha);
    },
  };
}

/** The commits of `git cat-file --batch` output with their raw objects, in order. */
export function commitsInBatch(output: Buffer): PushedCommit[] {
  const commits: PushedCommit[] = [];
  let offset = 0;
  while (offset < output.length) {
    const headerEnd = output.indexOf(10, offset);
    if (headerEnd < 0) break;
    const [sha = "", type, sizeText] = output.subarray(offset, headerEnd).toString("utf8").split(" ");
    const size = Number(sizeText);
    if (type === "commit")
      commits.push({ sha, object: output.subarray(headerEnd + 1, headerEnd + 1 + size) });
    offset = headerEnd + 1 + (Number.isFinite(size) ? size + 1 : 0);
  }
  return commits;
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
