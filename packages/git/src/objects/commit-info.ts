import { GitNotFoundError } from "../errors/git-error.js";
import { type IsoContext, isIsoNotFound } from "./iso.js";
import { readCommitCached } from "./object-cache.js";
import type { ParsedCommit } from "./parse-objects.js";
import { fromIsoSignature, type GitSignature } from "./signature.js";

/** A commit as the API shows it. */
export interface CommitInfo {
  readonly sha: string;
  readonly tree: string;
  readonly parents: readonly string[];
  readonly author: GitSignature;
  readonly committer: GitSignature;
  readonly message: string;
  /** Whether the commit carries a signature (`gpgsig`); it is not verified here. */
  readonly signed: boolean;
}

/** Converts a parsed commit (ours or isomorphic-git's, which have the same shape) to a {@link CommitInfo}. */
export function toCommitInfo(result: ParsedCommit): CommitInfo {
  const { commit } = result;
  return {
    sha: result.oid,
    tree: commit.tree,
    parents: [...commit.parent],
    author: fromIsoSignature(commit.author),
    committer: fromIsoSignature(commit.committer),
    message: commit.message,
    signed: typeof commit.gpgsig === "string" && commit.gpgsig.length > 0,
  };
}

/** Reads one commit by its full sha; throws not-found when it is missing or not a commit. */
export async function readCommitInfo(ctx: IsoContext, sha: string): Promise<CommitInfo> {
  try {
    return toCommitInfo(await readCommitCached(ctx, sha));
  } catch (error) {
    if (isIsoNotFound(error) || (error as { code?: string }).code === "ObjectTypeError") {
      throw new GitNotFoundError(`commit ${sha} does not exist`, { cause: error });
    }
    throw error;
  }
}
