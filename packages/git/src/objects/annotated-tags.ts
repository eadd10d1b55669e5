import type { GitRepository } from "../disk/git-repository.js";
import { GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { type CommitInfo, readCommitInfo } from "./commit-info.js";
import { isoContext } from "./iso.js";
import { readTagCached } from "./object-cache.js";
import { objectType, peel } from "./resolve.js";
import { fromIsoSignature, type GitSignature } from "./signature.js";

/** An annotated tag object (Forgejo's `git.Tag` read by id). */
export interface AnnotatedTagInfo {
  readonly sha: string;
  readonly name: string;
  readonly message: string;
  readonly tagger?: GitSignature;
  /** The object the tag points at directly. */
  readonly object: { readonly sha: string; readonly type: string };
  /** The commit the tag finally points at, when it is one. */
  readonly commit?: CommitInfo;
}

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Reads the annotated tag object with this full sha. Invalid-argument for something that is not
 * a sha or names another kind of object (a lightweight tag's commit), not-found for no object.
 */
export async function getAnnotatedTag(repo: GitRepository, sha: string): Promise<AnnotatedTagInfo> {
  if (!FULL_SHA.test(sha)) throw new GitInvalidArgumentError(`not a tag object id: ${sha}`);
  const ctx = isoContext(repo);
  const type = await objectType(ctx, sha);
  if (!type) throw new GitNotFoundError(`object ${sha} does not exist`);
  if (type !== "tag") throw new GitInvalidArgumentError(`object ${sha} is a ${type}, not an annotated tag`);
  const { tag } = await readTagCached(ctx, sha);
  const peeled = await peel(ctx, sha);
  const commit = peeled.type === "commit" ? await readCommitInfo(ctx, peeled.oid) : undefined;
  return {
    sha,
    name: tag.tag,
    message: tag.message,
    ...(tag.tagger ? { tagger: fromIsoSignature(tag.tagger) } : {}),
    object: { sha: tag.object, type: tag.type },
    ...(commit ? { commit } : {}),
  };
}
