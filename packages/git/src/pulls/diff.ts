import type { GitRepository } from "../disk/git-repository.js";
import type { CommitInfo } from "../objects/commit-info.js";
import { readCommitInfo, toCommitInfo } from "../objects/commit-info.js";
import { isoContext } from "../objects/iso.js";
import { straightRange } from "../objects/short-history.js";
import { gitOutputStream } from "../transport/git-process.js";
import { gitOk, isolatedEnv } from "./git-cli.js";

type Repo = Pick<GitRepository, "gitdir">;

/** How a file changed between two commits (git's status letters, in Forgejo's words). */
export type ComparedFileStatus = "added" | "deleted" | "modified" | "renamed" | "copied" | "changed";

/** One file of a comparison, with its line counts (zero for binary files). */
export interface ComparedFile {
  readonly filename: string;
  /** The name before a rename or copy. */
  readonly previousFilename?: string;
  readonly status: ComparedFileStatus;
  readonly additions: number;
  readonly deletions: number;
  readonly binary: boolean;
}

/** git's flags for Forgejo's `whitespace` choices. */
const WHITESPACE: Readonly<
  Record<"none" | "ignore-all" | "ignore-change" | "ignore-eol", readonly string[]>
> = {
  none: [],
  "ignore-all": ["-w"],
  "ignore-change": ["-b"],
  "ignore-eol": ["--ignore-space-at-eol"],
};

const STATUS: Record<string, ComparedFileStatus> = {
  A: "added",
  D: "deleted",
  M: "modified",
  R: "renamed",
  C: "copied",
  T: "changed",
};

/**
 * The files that differ from `base` to `head` (`git diff -M`), sorted as git lists them, with
 * added and deleted lines from `--numstat`.
 */
export async function changedFiles(
  repo: Repo,
  base: string,
  head: string,
  options: { readonly whitespace?: "ignore-all" | "ignore-change" | "ignore-eol" } = {},
): Promise<ComparedFile[]> {
  const flags = ["--no-color", "--no-ext-diff", "-M", ...WHITESPACE[options.whitespace ?? "none"]];
  const [status, numstat] = await Promise.all([
    gitOk(repo, ["diff", ...flags, "--name-status", "-z", base, head]),
    gitOk(repo, ["diff", ...flags, "--numstat", "-z", base, head]),
  ]);
  const counts = new Map<string, { additions: number; deletions: number; binary: boolean }>();
  const numParts = numstat.split("\0");
  for (let i = 0; i < numParts.length; i++) {
    const head = numParts[i] ?? "";
    if (head === "") continue;
    const [adds = "", dels = "", path = ""] = head.split("\t");
    let name = path;
    if (path === "") {
      // A rename or copy: the old and the new name follow as their own fields.
      i += 2;
      name = numParts[i] ?? "";
    }
    counts.set(name, {
      additions: adds === "-" ? 0 : Number(adds),
      deletions: dels === "-" ? 0 : Number(dels),
      binary: adds === "-",
    });
  }
  const files: ComparedFile[] = [];
  const parts = status.split("\0");
  for (let i = 0; i < parts.length; i++) {
    const code = parts[i] ?? "";
    if (code === "") continue;
    const letter = code[0] ?? "M";
    let filename = parts[++i] ?? "";
    let previousFilename: string | undefined;
    if (letter === "R" || letter === "C") {
      previousFilename = filename;
      filename = parts[++i] ?? "";
    }
    const count = counts.get(filename) ?? { additions: 0, deletions: 0, binary: false };
    files.push({
      filename,
      ...(previousFilename !== undefined ? { previousFilename } : {}),
      status: STATUS[letter] ?? "changed",
      ...count,
    });
  }
  return files;
}

/** A page of the commits `head` has that `base` lacks, newest first, with how many there are in all. */
export async function rangeCommits(
  repo: GitRepository,
  base: string,
  head: string,
  page: { readonly skip: number; readonly limit: number },
): Promise<{ commits: CommitInfo[]; total: number }> {
  // A short straight line of commits onto `base` (most pushes and pull requests) is read in process.
  const line = await straightRange(repo, base, head);
  if (line) {
    return { commits: line.slice(page.skip, page.skip + page.limit).map(toCommitInfo), total: line.length };
  }
  const range = `${base}..${head}`;
  const total = Number(await gitOk(repo, ["rev-list", "--count", range]));
  // A page past the end is empty without asking git (whose --skip is a 32-bit int).
  if (page.skip >= total) return { commits: [], total };
  const listed = await gitOk(repo, ["rev-list", `--skip=${page.skip}`, `--max-count=${page.limit}`, range]);
  const ctx = isoContext(repo);
  const commits: CommitInfo[] = [];
  for (const sha of listed.split("\n").filter((line) => line !== "")) {
    commits.push(await readCommitInfo(ctx, sha));
  }
  return { commits, total };
}

/**
 * The difference between two commits as git prints it, streamed as git writes it: `git diff -p`
 * (with `--binary` when asked) or `git format-patch --binary --stdout base...head` for a patch
 * series, as Forgejo's GetDiffOrPatch runs them.
 */
export function diffStream(
  repo: Repo,
  base: string,
  head: string,
  options: { readonly patch?: boolean; readonly binary?: boolean } = {},
): ReadableStream<Uint8Array> {
  const args = options.patch
    ? ["format-patch", "--no-color", "--binary", "--stdout", `${base}...${head}`]
    : [
        "diff",
        "--no-color",
        "--no-ext-diff",
        "-p",
        ...(options.binary ? ["--binary", "--histogram"] : []),
        base,
        head,
      ];
  return gitOutputStream(
    options.patch ? "format-patch" : "diff",
    ["--git-dir", repo.gitdir, ...args],
    isolatedEnv(),
    () => {},
  );
}

/**
 * What a comparison changes, as one string: every changed path with its old and new blob ids
 * (`git diff --raw --no-abbrev`). Two comparisons with the same signature change the same files to
 * the same contents (Forgejo's checkIfPRContentChanged: a head that moved without changing the
 * pull request's content keeps its reviews fresh).
 */
export function diffSignature(repo: Repo, base: string, head: string): Promise<string> {
  return gitOk(repo, ["diff", "--raw", "--no-abbrev", "--no-renames", base, head]);
}

/**
 * One commit's change as git prints it, streamed: against its first parent (`git diff -M`), or
 * `git show` for a root commit; as a patch, `git format-patch` of that one commit. Forgejo's
 * GetRawDiff for a commit runs the same commands.
 */
export function commitDiffStream(
  repo: Repo,
  commit: Pick<CommitInfo, "sha" | "parents">,
  options: { readonly patch?: boolean } = {},
): ReadableStream<Uint8Array> {
  const parent = commit.parents[0];
  const args = options.patch
    ? parent
      ? ["format-patch", "--no-color", "--no-signature", "--stdout", `${commit.sha}...${parent}`]
      : ["format-patch", "--no-color", "--no-signature", "--stdout", "--root", commit.sha]
    : parent
      ? ["diff", "--no-color", "--no-ext-diff", "-M", parent, commit.sha]
      : ["show", "--no-color", "--no-ext-diff", commit.sha];
  return gitOutputStream(args[0] ?? "diff", ["--git-dir", repo.gitdir, ...args], isolatedEnv(), () => {});
}
