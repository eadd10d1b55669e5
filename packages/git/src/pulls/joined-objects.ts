import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { GitRepository } from "../disk/git-repository.js";
import { stopBatchProcesses } from "../objects/cat-file.js";
import { runGitOk } from "../util/run-git.js";
import { gitOk } from "./git-cli.js";

type Repo = Pick<GitRepository, "gitdir">;

/**
 * Runs `fn` on a read-only repository that sees the objects of both `base` and `head` (git
 * alternates in a scratch directory, removed afterwards), so a comparison across forks reads the
 * fork's commits without copying them into the base: a read must not grow the base on disk, where
 * its owner's quota would pay for another user's objects. The view has no refs; name commits by id.
 */
export async function withJoinedObjects<T>(
  base: Repo,
  head: Repo,
  fn: (view: GitRepository) => Promise<T>,
): Promise<T> {
  const format = await gitOk(base, ["rev-parse", "--show-object-format"]);
  const dir = await mkdtemp(join(tmpdir(), "kiln-joined-"));
  const gitdir = join(dir, "view.git");
  try {
    await runGitOk(["init", "--bare", "--quiet", `--object-format=${format}`, gitdir]);
    await writeFile(
      join(gitdir, "objects", "info", "alternates"),
      `${join(base.gitdir, "objects")}\n${join(head.gitdir, "objects")}\n`,
    );
    const view: GitRepository = {
      owner: "",
      name: "",
      gitdir,
      withWriteLock: () => Promise.reject(new Error("a joined view of two repositories is read-only")),
    };
    return await fn(view);
  } finally {
    stopBatchProcesses(gitdir);
    await rm(dir, { recursive: true, force: true });
  }
}
