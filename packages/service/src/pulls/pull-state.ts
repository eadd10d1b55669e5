import { type ProtectedBranch, PullStatus } from "@kiln/domain";
import {
  aheadBehind,
  changedFiles,
  type GitRepository,
  isAncestor,
  mergeBase,
  mergeTree,
  parseFilePatterns,
  rangeCommits,
  treeOf,
} from "@kiln/git";
import type { PullState } from "@kiln/storage";

/** The commits a pull request joins right now: its base branch's tip and its head. */
export interface PullTips {
  /** Undefined when the base branch is gone. */
  readonly base: string | undefined;
  /** The head branch's tip; undefined when the branch is gone. */
  readonly head: string | undefined;
}

/**
 * What merging `head` into `base` gives (Forgejo's testPatch): the merge base, whether the head
 * is already in the base (`ancestor`), conflicts and their files (`git merge-tree`), whether
 * merging changes nothing (`empty`), the protected files it changes (under `rule`), how far the
 * branches diverged and the size of the change. Missing tips give `error`.
 */
export async function computePullState(
  git: GitRepository,
  tips: PullTips,
  rule: ProtectedBranch | undefined,
): Promise<PullState> {
  const { base, head } = tips;
  const none = {
    headCommitId: head ?? "",
    baseCommitId: base ?? "",
    conflictedFiles: [],
    changedProtectedFiles: [],
    commitsAhead: 0,
    commitsBehind: 0,
    additions: 0,
    deletions: 0,
    changedFiles: 0,
  };
  if (!base || !head) return { ...none, mergeBase: "", status: PullStatus.error };
  const [common, counts, merged] = await Promise.all([
    mergeBase(git, base, head),
    aheadBehind(git, base, head),
    mergeTree(git, base, head),
  ]);
  const from = common ?? base;
  const files = await changedFiles(git, from, head);
  const patterns = parseFilePatterns(rule?.settings.protectedFilePatterns);
  const state = {
    ...none,
    mergeBase: from,
    commitsAhead: counts.ahead,
    commitsBehind: counts.behind,
    additions: files.reduce((sum, file) => sum + file.additions, 0),
    deletions: files.reduce((sum, file) => sum + file.deletions, 0),
    changedFiles: files.length,
    changedProtectedFiles:
      patterns.globs.length > 0
        ? files
            .map((file) => file.filename.toLowerCase())
            .filter((name) => patterns.matches(name))
            .slice(0, 10)
        : [],
  };
  if (head === from) return { ...state, status: PullStatus.ancestor };
  if (!merged.clean) return { ...state, status: PullStatus.conflict, conflictedFiles: merged.conflicts };
  const baseTree = await treeOf(git, base);
  return { ...state, status: merged.tree === baseTree ? PullStatus.empty : PullStatus.mergeable };
}

/**
 * What a push to a pull request's head did, as Forgejo records it in a `pull_push` comment: the
 * new commits (oldest first), or the old and new heads of a force push.
 */
export async function pushedCommits(
  git: GitRepository,
  oldHead: string,
  newHead: string,
): Promise<{ is_force_push: boolean; commit_ids: string[] }> {
  if (!(await isAncestor(git, oldHead, newHead).catch(() => false))) {
    return { is_force_push: true, commit_ids: [oldHead, newHead] };
  }
  const { commits } = await rangeCommits(git, oldHead, newHead, { skip: 0, limit: 250 });
  return { is_force_push: false, commit_ids: commits.map((commit) => commit.sha).reverse() };
}
