import git from "isomorphic-git";
import { GitConflictError, GitInvalidArgumentError } from "../errors/git-error.js";
import { isReadableRef, isValidBranchName, isValidTagName } from "../util/ref-names.js";
import type { IsoContext } from "./iso.js";
import { refsChanged } from "./repo-state.js";
import { readRef } from "./resolve.js";

/**
 * Points `ref` at `newSha` only if it still points at `expected` (undefined: must not exist),
 * else throws a conflict. A ref name git refuses is invalid-argument, and so is creating a
 * branch or tag whose short name git's `branch` or `tag` command would refuse (`HEAD`, `-x`):
 * whatever the caller checked, no write makes such a ref. Callers hold the repository's write lock.
 */
export async function compareAndSetRef(
  ctx: IsoContext,
  ref: string,
  expected: string | undefined,
  newSha: string,
): Promise<void> {
  if (!isReadableRef(ref) || ref === "HEAD" || (expected === undefined && !isCreatable(ref))) {
    throw new GitInvalidArgumentError(`invalid ref name: ${ref}`);
  }
  const current = await readRef(ctx, ref);
  if (current !== expected) throw new GitConflictError(`${ref} was changed concurrently; try again`);
  try {
    await git.writeRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref, value: newSha, force: true });
  } finally {
    refsChanged(ctx.gitdir);
  }
}

function isCreatable(ref: string): boolean {
  if (ref.startsWith("refs/heads/")) return isValidBranchName(ref.slice("refs/heads/".length));
  if (ref.startsWith("refs/tags/")) return isValidTagName(ref.slice("refs/tags/".length));
  return true;
}
