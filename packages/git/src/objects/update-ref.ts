import { mkdir, open, rename, unlink } from "node:fs/promises";
import { dirname, join } from "node:path";
import { GitConflictError, GitInvalidArgumentError } from "../errors/git-error.js";
import { isReadableRef, isValidBranchName, isValidTagName } from "../util/ref-names.js";
import type { IsoContext } from "./iso.js";
import { refsChanged } from "./repo-state.js";
import { readRef } from "./resolve.js";

/**
 * Points `ref` at `newSha` only if it still points at `expected` (undefined: must not exist),
 * else throws a conflict. A ref name git refuses is invalid-argument, and so is creating a
 * branch or tag whose short name git's `branch` or `tag` command would refuse (`HEAD`, `-x`):
 * whatever the caller checked, no write makes such a ref.
 *
 * The move follows git's own locking (`<ref>.lock` created exclusively, the ref read again under
 * the lock, the new value renamed into place), so it is atomic against `git receive-pack`,
 * `git update-ref` and other Kiln processes sharing the repository, not only against this
 * process's write lock: of two writers that read the same old value, one wins and the other gets
 * a conflict, and no reader ever sees a half-written ref file.
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
  const path = join(ctx.gitdir, ref);
  const lock = `${path}.lock`;
  try {
    await mkdir(dirname(path), { recursive: true });
  } catch (error) {
    // A ref already holds a leading part of the name (`refs/heads/a` blocks `refs/heads/a/b`).
    if (isFsError(error, "EEXIST", "ENOTDIR")) throw blocked(ref);
    throw error;
  }
  let file: Awaited<ReturnType<typeof open>> | undefined;
  try {
    file = await open(lock, "wx");
  } catch (error) {
    if (isFsError(error, "EEXIST")) throw changedConcurrently(ref);
    throw error;
  }
  let moved = false;
  try {
    if ((await readRef(ctx, ref)) !== expected) throw changedConcurrently(ref);
    await file.writeFile(`${newSha}\n`);
    await file.close();
    file = undefined;
    try {
      await rename(lock, path);
    } catch (error) {
      // The name is a directory of longer refs (`refs/heads/a` when `refs/heads/a/b` exists).
      if (isFsError(error, "EISDIR", "ENOTEMPTY", "EEXIST", "ENOTDIR")) throw blocked(ref);
      throw error;
    }
    moved = true;
  } finally {
    await file?.close().catch(() => undefined);
    if (!moved) await unlink(lock).catch(() => undefined);
    refsChanged(ctx.gitdir);
  }
}

function changedConcurrently(ref: string): GitConflictError {
  return new GitConflictError(`${ref} was changed concurrently; try again`);
}

function blocked(ref: string): GitConflictError {
  return new GitConflictError(`cannot lock ref '${ref}': another ref is in the way of its name`);
}

function isFsError(error: unknown, ...codes: string[]): boolean {
  return codes.includes((error as NodeJS.ErrnoException)?.code ?? "");
}

function isCreatable(ref: string): boolean {
  if (ref.startsWith("refs/heads/")) return isValidBranchName(ref.slice("refs/heads/".length));
  if (ref.startsWith("refs/tags/")) return isValidTagName(ref.slice("refs/tags/".length));
  return true;
}
