import git from "isomorphic-git";
import type { GitRepository } from "../disk/git-repository.js";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { ZERO_SHA } from "../hooks/push-policy.js";
import { isValidTagName } from "../util/ref-names.js";
import type { BeforeRefMove } from "./branches.js";
import { type CommitInfo, readCommitInfo } from "./commit-info.js";
import { type IsoContext, isoContext } from "./iso.js";
import { readTagCached } from "./object-cache.js";
import { lookupRef, refSnapshot, refsChanged } from "./repo-state.js";
import { headBranch, objectType, peel, readRef, refValue, resolveCommit } from "./resolve.js";
import { fromIsoSignature, type GitSignature, type SignatureInput, toIsoSignature } from "./signature.js";
import { compareAndSetRef } from "./update-ref.js";

export { isValidTagName } from "../util/ref-names.js";

/** A tag: `sha` is the tag object's sha for annotated tags and the target's for lightweight ones. */
export interface TagInfo {
  readonly name: string;
  readonly sha: string;
  readonly annotated: boolean;
  /** The commit the tag finally points at (undefined when it tags a tree or blob). */
  readonly commit?: CommitInfo;
  readonly message?: string;
  readonly tagger?: GitSignature;
}

async function describeTag(ctx: IsoContext, name: string, sha: string): Promise<TagInfo> {
  const type = await objectType(ctx, sha);
  const peeled = await peel(ctx, sha);
  const commit = peeled.type === "commit" ? await readCommitInfo(ctx, peeled.oid) : undefined;
  if (type !== "tag") return { name, sha, annotated: false, ...(commit ? { commit } : {}) };
  const { tag } = await readTagCached(ctx, sha);
  return {
    name,
    sha,
    annotated: true,
    ...(commit ? { commit } : {}),
    message: tag.message,
    ...(tag.tagger ? { tagger: fromIsoSignature(tag.tagger) } : {}),
  };
}

/** Lists all tags, newest-named last (sorted by name). */
export async function listTags(repo: GitRepository): Promise<TagInfo[]> {
  const ctx = isoContext(repo);
  const snapshot = await refSnapshot(ctx.gitdir);
  const tags: TagInfo[] = [];
  for (const ref of snapshot.names) {
    if (!ref.startsWith("refs/tags/")) continue;
    const sha = lookupRef(snapshot, ref);
    if (sha) tags.push(await describeTag(ctx, ref.slice("refs/tags/".length), sha));
  }
  return tags;
}

/** Reads one tag; throws not-found when it does not exist. */
export async function getTag(repo: GitRepository, name: string): Promise<TagInfo> {
  const ctx = isoContext(repo);
  const sha = await refValue(ctx, `refs/tags/${name}`);
  if (!sha) throw new GitNotFoundError(`tag ${name} does not exist`);
  return describeTag(ctx, name, sha);
}

/** Options of {@link createTag}: an annotated tag when `message` is non-empty, else lightweight. */
export interface CreateTagOptions {
  readonly name: string;
  /** Branch, tag or sha to tag; the default branch when absent. */
  readonly target?: string;
  readonly message?: string;
  /** Required for annotated tags. */
  readonly tagger?: SignatureInput;
  /** Told the move once it is decided, under the lock and before the ref moves (a journal's hook). */
  readonly beforeMove?: BeforeRefMove;
}

/**
 * Creates a tag. Throws already-exists, not-found (target) or invalid-argument (missing tagger,
 * or a name git's `tag` command refuses, {@link isValidTagName}: `HEAD`, `-x`, `a..b`, …).
 */
export async function createTag(repo: GitRepository, options: CreateTagOptions): Promise<TagInfo> {
  if (!isValidTagName(options.name)) throw new GitInvalidArgumentError(`invalid tag name: ${options.name}`);
  if (options.message && !options.tagger)
    throw new GitInvalidArgumentError("an annotated tag needs a tagger");
  return repo.withWriteLock(async () => {
    const ctx = isoContext(repo);
    const ref = `refs/tags/${options.name}`;
    if (await readRef(ctx, ref)) throw new GitAlreadyExistsError(`tag ${options.name} already exists`);
    const target = await resolveCommit(ctx, options.target ?? (await headBranch(ctx)));
    let sha = target;
    if (options.message && options.tagger) {
      sha = await git.writeTag({
        fs: ctx.fs,
        gitdir: ctx.gitdir,
        tag: {
          object: target,
          type: "commit",
          tag: options.name,
          tagger: toIsoSignature(options.tagger),
          message: `${options.message.trimEnd()}\n`,
        },
      });
    }
    await options.beforeMove?.({ ref, oldSha: ZERO_SHA, newSha: sha });
    await compareAndSetRef(ctx, ref, undefined, sha);
    return describeTag(ctx, options.name, sha);
  });
}

/** Deletes a tag and resolves with the sha it pointed at; throws not-found when it does not exist. */
export async function deleteTag(
  repo: GitRepository,
  name: string,
  beforeMove?: BeforeRefMove,
): Promise<string> {
  return repo.withWriteLock(async () => {
    const ctx = isoContext(repo);
    const sha = await readRef(ctx, `refs/tags/${name}`);
    if (!sha) throw new GitNotFoundError(`tag ${name} does not exist`);
    await beforeMove?.({ ref: `refs/tags/${name}`, oldSha: sha, newSha: ZERO_SHA });
    try {
      await git.deleteRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref: `refs/tags/${name}` });
    } finally {
      refsChanged(ctx.gitdir);
    }
    return sha;
  });
}
