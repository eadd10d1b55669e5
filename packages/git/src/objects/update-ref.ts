import git from "isomorphic-git";
import { GitConflictError } from "../errors/git-error.js";
import type { IsoContext } from "./iso.js";
import { readRef } from "./resolve.js";

/**
 * Points `ref` at `newSha` only if it still points at `expected` (undefined: must not exist),
 * else throws a conflict. Callers hold the repository's write lock.
 */
export async function compareAndSetRef(
  ctx: IsoContext,
  ref: string,
  expected: string | undefined,
  newSha: string,
): Promise<void> {
  const current = await readRef(ctx, ref);
  if (current !== expected) throw new GitConflictError(`${ref} was changed concurrently; try again`);
  await git.writeRef({ fs: ctx.fs, gitdir: ctx.gitdir, ref, value: newSha, force: true });
}
