import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GitRepository } from "../disk/git-repository.js";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { type RefUpdate, ZERO_SHA } from "../hooks/push-policy.js";
import { gitIn, gitOk } from "../pulls/git-cli.js";
import { writeCommit } from "../pulls/write.js";
import { isValidBranchName } from "../util/ref-names.js";
import { type CommitInfo, readCommitInfo } from "./commit-info.js";
import { isoContext } from "./iso.js";
import { headBranch, isEmptyRepository, readRef } from "./resolve.js";
import type { SignatureInput } from "./signature.js";
import { compareAndSetRef } from "./update-ref.js";

/** What {@link applyPatch} takes (Forgejo's ApplyDiffPatchOptions). */
/** The largest blob one binary hunk of a patch may inflate to. */
const MAX_BINARY_HUNK = 64 * 1024 * 1024;

export interface ApplyPatchOptions {
  /** A unified diff as `git diff` or `git format-patch` writes it. */
  readonly patch: string;
  /** The branch the patch applies to (default branch when absent); it must exist. */
  readonly branch?: string;
  /** Commit to this new branch, made from `branch`, instead. */
  readonly newBranch?: string;
  readonly message: string;
  readonly author: SignatureInput;
  readonly committer: SignatureInput;
  readonly signoff?: boolean;
  /**
   * Called with every path the patch changes (both names of a rename) before the branch moves:
   * throwing refuses the commit (the objects written stay unreferenced, for `git gc`).
   */
  readonly beforeUpdate?: (paths: readonly string[]) => Promise<void>;
  /** Told the ref move once the commit is written and before the branch moves (to journal it). */
  readonly beforeMove?: (update: RefUpdate) => Promise<void>;
}

/** What {@link applyPatch} committed. */
export interface ApplyPatchResult {
  readonly branch: string;
  readonly commit: CommitInfo;
  readonly paths: readonly string[];
}

/**
 * Applies a unified diff to a branch as one commit, with `git apply --cached` on an index file of
 * its own in a private temporary directory (never a work tree or the repository's index), under the
 * repository's write lock; the branch moves compare-and-set. Not-found for a missing branch,
 * already-exists for an existing new branch, invalid-argument for a patch that does not apply.
 */
export async function applyPatch(repo: GitRepository, options: ApplyPatchOptions): Promise<ApplyPatchResult> {
  return repo.withWriteLock(async () => {
    const ctx = isoContext(repo);
    if (await isEmptyRepository(ctx)) throw new GitNotFoundError("the repository is empty");
    const base = options.branch || (await headBranch(ctx));
    const baseSha = await readRef(ctx, `refs/heads/${base}`);
    if (!baseSha) throw new GitNotFoundError(`branch ${base} does not exist`);
    const target = options.newBranch || base;
    if (!isValidBranchName(target)) throw new GitInvalidArgumentError(`invalid branch name: ${target}`);
    if (options.newBranch && (await readRef(ctx, `refs/heads/${target}`))) {
      throw new GitAlreadyExistsError(`branch ${target} already exists`);
    }
    // A binary hunk states the size it inflates to: a small compressed body could otherwise add
    // gigabytes of blobs. Each may inflate to at most 64 MiB.
    for (const m of options.patch.matchAll(/^(?:literal|delta) (\d+)$/gm)) {
      if (Number(m[1]) > MAX_BINARY_HUNK)
        throw new GitInvalidArgumentError(
          `patch does not apply: a binary hunk of ${m[1]} bytes is too large`,
        );
    }
    const scratch = await mkdtemp(join(tmpdir(), "kiln-apply-"));
    try {
      const env = { GIT_INDEX_FILE: join(scratch, "index") };
      await gitOk(repo, ["read-tree", baseSha], { env });
      const applied = await gitIn(
        repo,
        ["apply", "--cached", "--recount", "--binary", "--whitespace=nowarn", "-"],
        { env, input: options.patch },
      );
      if (applied.code !== 0) {
        const reason = applied.stderr.trim().split("\n").slice(0, 5).join("; ");
        throw new GitInvalidArgumentError(`patch does not apply: ${reason}`);
      }
      const tree = await gitOk(repo, ["write-tree"], { env });
      const parentTree = (await readCommitInfo(ctx, baseSha)).tree;
      const listed = await gitOk(repo, [
        "diff-tree",
        "-r",
        "-z",
        "--no-renames",
        "--name-only",
        parentTree,
        tree,
      ]);
      const paths = listed.split("\0").filter((path) => path !== "");
      await options.beforeUpdate?.(paths);
      let message = `${options.message.trimEnd()}\n`;
      if (options.signoff) {
        message += `\nSigned-off-by: ${options.committer.name} <${options.committer.email}>\n`;
      }
      const sha = await writeCommit(repo, {
        tree,
        parents: [baseSha],
        message,
        author: options.author,
        committer: options.committer,
      });
      const ref = `refs/heads/${target}`;
      await options.beforeMove?.({ ref, oldSha: options.newBranch ? ZERO_SHA : baseSha, newSha: sha });
      await compareAndSetRef(ctx, ref, options.newBranch ? undefined : baseSha, sha);
      return { branch: target, commit: await readCommitInfo(ctx, sha), paths };
    } finally {
      await rm(scratch, { recursive: true, force: true });
    }
  });
}
