import type { CommitInfo } from "./commit-info.js";
import { readCommitInfo } from "./commit-info.js";
import { type ChangedFile, diffTrees } from "./diff-trees.js";
import type { IsoContext } from "./iso.js";
import { objectKeyPrefix } from "./repo-state.js";

/** The files a commit changed against its first parent, and the summed line stats. */
export interface CommitChanges {
  readonly files: readonly ChangedFile[];
  readonly stats: { readonly additions: number; readonly deletions: number; readonly total: number };
}

/**
 * Each commit's changed files and line stats, by repository incarnation and commit id (they never
 * change), while they add up to at most this many files: a page of history with Forgejo's
 * defaults (`stat` and `files` on) diffs each commit once, however often it is asked for.
 */
const MAX_CACHED_FILES = 200_000;
const changesByCommit = new Map<string, CommitChanges>();
let cachedFiles = 0;

/** A commit's changes against its first parent, diffed once and then remembered. */
export async function commitChanges(ctx: IsoContext, commit: CommitInfo): Promise<CommitChanges> {
  const key = objectKeyPrefix(ctx.gitdir) + commit.sha;
  const known = changesByCommit.get(key);
  if (known) {
    changesByCommit.delete(key);
    changesByCommit.set(key, known);
    return known;
  }
  const parent = commit.parents[0] ? await readCommitInfo(ctx, commit.parents[0]) : undefined;
  const files = await diffTrees(ctx, parent?.tree, commit.tree);
  const additions = files.reduce((sum, file) => sum + file.additions, 0);
  const deletions = files.reduce((sum, file) => sum + file.deletions, 0);
  const changes = { files, stats: { additions, deletions, total: additions + deletions } };
  // One file's entry is counted once more for the map entry itself.
  if (files.length + 1 > MAX_CACHED_FILES) return changes;
  changesByCommit.set(key, changes);
  cachedFiles += files.length + 1;
  for (const [oldest, value] of changesByCommit) {
    if (cachedFiles <= MAX_CACHED_FILES) break;
    changesByCommit.delete(oldest);
    cachedFiles -= value.files.length + 1;
  }
  return changes;
}
