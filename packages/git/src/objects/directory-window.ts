import type { GitRepository } from "../disk/git-repository.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { isoContext } from "./iso.js";
import { readCommitCached } from "./object-cache.js";
import { headBranch, resolveCommit } from "./resolve.js";
import { entryAtPath, normalizeRepoPath, type TreeEntry } from "./tree-entries.js";
import { treeEntriesWindow } from "./tree-listing.js";

/** A window of a directory's entries and how many the directory has. */
export interface DirectoryWindow {
  readonly commitSha: string;
  /** The entries at positions `[start, start + count)` in git's (tree) order. */
  readonly entries: readonly TreeEntry[];
  readonly total: number;
}

/**
 * The entries `[start, start + count)` of the directory `path` (the root when absent) at `ref`
 * (the default branch when absent), in git's order, and how many it has: only the window is
 * decoded, whatever the directory's size (tree-listing.ts). Throws not-found for a missing ref or
 * a path that is no directory.
 */
export async function directoryWindow(
  repo: GitRepository,
  options: { readonly ref?: string; readonly path?: string; readonly start: number; readonly count: number },
): Promise<DirectoryWindow> {
  const ctx = isoContext(repo);
  const commitSha = await resolveCommit(ctx, options.ref ?? (await headBranch(ctx)));
  const rootTree = (await readCommitCached(ctx, commitSha)).commit.tree;
  const path = normalizeRepoPath(options.path ?? "");
  const dir = await entryAtPath(ctx, rootTree, path);
  if (dir?.type !== "tree") throw new GitNotFoundError(`directory ${path} does not exist`);
  const window = await treeEntriesWindow(
    ctx,
    dir.sha,
    Math.max(0, options.start),
    Math.max(0, options.count),
  );
  return { commitSha, entries: window.entries, total: window.total };
}
