import type { GitRepository } from "../disk/git-repository.js";
import { GitMergeConflictError, GitMergeRefusedError } from "../errors/git-error.js";
import { readCommitInfo } from "../objects/commit-info.js";
import { isoContext } from "../objects/iso.js";
import type { SignatureInput } from "../objects/signature.js";
import { commitsToReplay, isAncestor } from "./compare.js";
import { cherryPickTree, mergeTree } from "./merge-tree.js";
import { moveRef, treeOf, writeCommit } from "./write.js";

/** git's empty tree. */
const EMPTY_TREE = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";

/** The ways Forgejo merges a pull request that change the repository. */
export type MergeStyle = "merge" | "rebase" | "rebase-merge" | "squash" | "fast-forward-only";

/** A merge of `headSha` into branch `baseBranch`, which must still be at `baseSha`. */
export interface MergeRequest {
  readonly style: MergeStyle;
  readonly baseBranch: string;
  readonly baseSha: string;
  readonly headSha: string;
  /** The message of the commit the style writes (merge, squash, rebase-merge). */
  readonly message: string;
  /** Who merges: the committer of every new commit and the author of merge commits. */
  readonly doer: SignatureInput;
  /** The author of a squash commit (Forgejo: the pull request's poster); the doer when absent. */
  readonly squashAuthor?: SignatureInput;
  /**
   * Told the base branch's new head once it is written and before the branch moves, so the
   * caller can journal the move; a throw leaves the branch as it was.
   */
  readonly beforeMove?: (next: string) => Promise<void>;
}

/**
 * Replays the commits of `head` that `onto` lacks on top of `onto`, as `git rebase` does (merges
 * dropped, changes `onto` has already skipped, commits that become empty dropped, authors kept,
 * `committer` as committer) and returns the new tip. When `onto` is already in `head`'s history
 * nothing is rewritten and `head` itself is returned, as git does.
 */
export async function rebaseCommits(
  repo: GitRepository,
  onto: string,
  head: string,
  committer: SignatureInput,
): Promise<string> {
  if (await isAncestor(repo, onto, head)) return head;
  const ctx = isoContext(repo);
  let tip = onto;
  let tipTree = await treeOf(repo, onto);
  for (const sha of await commitsToReplay(repo, onto, head)) {
    const picked = await cherryPickTree(repo, tip, sha);
    if (!picked.clean) {
      throw new GitMergeConflictError(`rebase conflict in commit ${sha}`, picked.conflicts);
    }
    const original = await readCommitInfo(ctx, sha);
    // A commit that becomes empty is dropped; one that was empty to begin with is kept, as git does.
    const [parent] = original.parents;
    const startedEmpty = original.tree === (parent ? await treeOf(repo, parent) : EMPTY_TREE);
    if (picked.tree === tipTree && !startedEmpty) continue;
    tip = await writeCommit(repo, {
      tree: picked.tree,
      parents: [tip],
      message: original.message,
      author: original.author,
      committer,
    });
    tipTree = picked.tree;
  }
  return tip;
}

async function mergedTree(repo: GitRepository, ours: string, theirs: string): Promise<string> {
  const merged = await mergeTree(repo, ours, theirs);
  if (!merged.clean) throw new GitMergeConflictError("merge conflict", merged.conflicts);
  return merged.tree;
}

/**
 * The commit the base branch moves to for each style: a merge commit (`merge`), one commit with
 * the merged tree (`squash`), the head itself (`fast-forward-only`), the head's commits replayed
 * (`rebase`), or those replayed and then merged with a merge commit (`rebase-merge`).
 */
async function mergedCommit(repo: GitRepository, req: MergeRequest): Promise<string> {
  const { baseSha, headSha, doer } = req;
  switch (req.style) {
    case "merge":
      return writeCommit(repo, {
        tree: await mergedTree(repo, baseSha, headSha),
        parents: [baseSha, headSha],
        message: req.message,
        author: doer,
        committer: doer,
      });
    case "squash":
      return writeCommit(repo, {
        tree: await mergedTree(repo, baseSha, headSha),
        parents: [baseSha],
        message: req.message,
        author: req.squashAuthor ?? doer,
        committer: doer,
      });
    case "fast-forward-only":
      if (!(await isAncestor(repo, baseSha, headSha))) {
        throw new GitMergeRefusedError("the head branch is not a descendant of the base branch");
      }
      return headSha;
    case "rebase":
      return rebaseCommits(repo, baseSha, headSha, doer);
    case "rebase-merge": {
      const rebased = await rebaseCommits(repo, baseSha, headSha, doer);
      return writeCommit(repo, {
        tree: await treeOf(repo, rebased),
        parents: [baseSha, rebased],
        message: req.message,
        author: doer,
        committer: doer,
      });
    }
  }
}

/**
 * Merges a head commit into a branch under the repository's write lock and moves the branch only
 * when everything succeeded, so a failed merge (conflict, a push to the base meanwhile) leaves the
 * repository as it was; new objects nothing refers to are left for `git gc`. Returns the branch's
 * new head.
 */
export async function mergeIntoBranch(repo: GitRepository, req: MergeRequest): Promise<string> {
  return repo.withWriteLock(async () => {
    const next = await mergedCommit(repo, req);
    await req.beforeMove?.(next);
    await moveRef(repo, `refs/heads/${req.baseBranch}`, next, req.baseSha);
    return next;
  });
}

/** An update of a pull request's head branch with its base (Forgejo's `pulls/{index}/update`). */
export interface UpdateRequest {
  readonly style: "merge" | "rebase";
  readonly headBranch: string;
  readonly headSha: string;
  readonly baseSha: string;
  /** The merge commit's message (style `merge`). */
  readonly message: string;
  readonly doer: SignatureInput;
  /**
   * Asked before the head branch moves, with the old and new heads: a reason to refuse (the
   * branch's protection, as a push of the same commits would meet it) leaves the branch as it was.
   */
  readonly check?: (oldSha: string, newSha: string) => Promise<string | undefined>;
}

/**
 * The commit an update of a head with its base gives (written, no ref moved): a merge commit of
 * the base into the head, or the head's commits replayed on the base; the head itself when there
 * is nothing to do.
 */
export async function updatedHead(repo: GitRepository, req: UpdateRequest): Promise<string> {
  return req.style === "rebase"
    ? rebaseCommits(repo, req.baseSha, req.headSha, req.doer)
    : writeCommit(repo, {
        tree: await mergedTree(repo, req.headSha, req.baseSha),
        parents: [req.headSha, req.baseSha],
        message: req.message,
        author: req.doer,
        committer: req.doer,
      });
}

/**
 * Brings a head branch up to date with its base: a merge commit of the base into the head, or the
 * head's commits replayed on the base (which rewrites the head branch). Returns the new head.
 */
export async function updateBranchFromBase(repo: GitRepository, req: UpdateRequest): Promise<string> {
  return repo.withWriteLock(async () => {
    const next = await updatedHead(repo, req);
    if (next === req.headSha) return next;
    const refusal = await req.check?.(req.headSha, next);
    if (refusal) throw new GitMergeRefusedError(refusal);
    await moveRef(repo, `refs/heads/${req.headBranch}`, next, req.headSha);
    return next;
  });
}
