import git from "isomorphic-git";
import { GitConflictError, GitInvalidArgumentError } from "../errors/git-error.js";
import { isReadableRef } from "../util/ref-names.js";
import type { IsoContext } from "./iso.js";
import { readRef } from "./resolve.js";

/**
 * Points `ref` at `newSha` only if it still points at `expected` (undefined: must not exist),
 * else throws a conflict; a ref name git refuses is invalid-argument. Callers hold the
 * repository's write lock.
 */
export async function compareAndSetRef(
  ctx: IsoContext,
  ref: string,
  expected: string | undefined,
  newSha: string,
): Promise<void> {
  if (!isReadableRef(ref) || ref === "HEAD") throw new GitInvalidArgumentError(`invalid ref name: ${ref}`);
  const current = await readRef(ctx, ref);
  if (current !== expected) throw new GitConflictError(`${ref} was changed concurrently; try again`);
  await git.writeRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref, value: newSha, force: true });
}
