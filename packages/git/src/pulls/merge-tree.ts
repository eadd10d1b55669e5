import type { GitRepository } from "../disk/git-repository.js";
import { gitIn, gitOk } from "./git-cli.js";

type Repo = Pick<GitRepository, "gitdir">;

/** What merging two commits gives: the merged tree, or the files that conflict. */
export type TreeMerge =
  | { readonly clean: true; readonly tree: string }
  | { readonly clean: false; readonly conflicts: readonly string[] };

/**
 * Merges two commits the way `git merge` would (ort strategy, their merge base found by git) without
 * a work tree: `git merge-tree --write-tree`. Unrelated histories are not merged; they are
 * reported as one conflict on no file.
 */
export async function mergeTree(
  repo: Repo,
  ours: string,
  theirs: string,
  options: { readonly allowUnrelated?: boolean } = {},
): Promise<TreeMerge> {
  const result = await gitIn(repo, [
    "merge-tree",
    ...(options.allowUnrelated ? ["--allow-unrelated-histories"] : []),
    "--write-tree",
    "--name-only",
    "--no-messages",
    "-z",
    ours,
    theirs,
  ]);
  if (result.code !== 0 && result.code !== 1) {
    const message = result.stderr.trim();
    if (/unrelated histories/.test(message)) return { clean: false, conflicts: [] };
    throw new Error(`git merge-tree failed (${result.code}): ${message}`);
  }
  const [tree = "", ...files] = result.stdout.toString("utf8").split("\0");
  if (result.code === 0) return { clean: true, tree };
  return { clean: false, conflicts: files.filter((file) => file !== "") };
}

/**
 * Applies the change `commit` made (against its first parent) on top of `onto`, as
 * `git cherry-pick` does, returning the tree or the conflicting files. git 2.39's merge-tree has no
 * `--merge-base`, so the three-way merge is set up with a scratch commit that has `onto`'s tree
 * and `commit`'s parent as its parent: the merge base of that and `commit` is then exactly the
 * parent, which is what a cherry-pick merges against.
 */
export async function cherryPickTree(repo: Repo, onto: string, commit: string): Promise<TreeMerge> {
  const [parent] = (await gitOk(repo, ["rev-parse", `${commit}^@`]))
    .split("\n")
    .filter((line) => line !== "");
  const ontoTree = await gitOk(repo, ["rev-parse", `${onto}^{tree}`]);
  // A root commit has no parent: it is merged against the empty tree, which is what git
  // cherry-picks it against, by a scratch commit without parents and unrelated histories allowed.
  const scratch = await gitOk(
    repo,
    ["commit-tree", ontoTree, ...(parent ? ["-p", parent] : []), "-m", "scratch"],
    {
      env: {
        GIT_AUTHOR_NAME: "kiln",
        GIT_AUTHOR_EMAIL: "kiln@localhost",
        GIT_COMMITTER_NAME: "kiln",
        GIT_COMMITTER_EMAIL: "kiln@localhost",
      },
    },
  );
  return mergeTree(repo, scratch, commit, { allowUnrelated: parent === undefined });
}
