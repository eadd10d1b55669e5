import type { GitRepository } from "../disk/git-repository.js";
import { GitConflictError, GitInvalidArgumentError } from "../errors/git-error.js";
import { refsChanged } from "../objects/repo-state.js";
import type { GitSignature, SignatureInput } from "../objects/signature.js";
import { isReadableRef } from "../util/ref-names.js";
import { gitIn, gitOk, identityEnv } from "./git-cli.js";

type Repo = Pick<GitRepository, "gitdir">;

/** A commit to write: its tree, parents, message and the two identities (with their dates). */
export interface NewCommit {
  readonly tree: string;
  readonly parents: readonly string[];
  readonly message: string;
  readonly author: SignatureInput | GitSignature;
  readonly committer: SignatureInput | GitSignature;
}

/** Writes a commit object with `git commit-tree` and returns its id (no ref moves). */
export async function writeCommit(repo: Repo, commit: NewCommit): Promise<string> {
  const args = ["commit-tree", commit.tree];
  for (const parent of commit.parents) args.push("-p", parent);
  args.push("-F", "-");
  const message = commit.message.endsWith("\n") ? commit.message : `${commit.message}\n`;
  return gitOk(repo, args, {
    input: message,
    env: { ...identityEnv("AUTHOR", commit.author), ...identityEnv("COMMITTER", commit.committer) },
  });
}

/**
 * Moves `ref` from `expected` (undefined: it must not exist) to `next` with `git update-ref`,
 * which locks the ref as a push does, so a push that landed meanwhile makes this a conflict
 * rather than a lost update.
 */
export async function moveRef(
  repo: Repo,
  ref: string,
  next: string,
  expected: string | undefined,
): Promise<void> {
  if (!isReadableRef(ref) || ref === "HEAD") throw new GitInvalidArgumentError(`invalid ref name: ${ref}`);
  const old = expected ?? "0".repeat(next.length);
  try {
    const result = await gitIn(repo, ["update-ref", "-m", "kiln", ref, next, old]);
    if (result.code !== 0) throw new GitConflictError(`${ref} was changed concurrently; try again`);
  } finally {
    refsChanged(repo.gitdir);
  }
}

/** The tree of a commit. */
export function treeOf(repo: Repo, commit: string): Promise<string> {
  return gitOk(repo, ["rev-parse", `${commit}^{tree}`]);
}
