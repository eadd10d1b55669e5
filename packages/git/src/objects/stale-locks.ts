import { stat, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { GitRepository } from "../disk/git-repository.js";
import { isoContext } from "./iso.js";
import { refsChanged } from "./repo-state.js";
import { readRef } from "./resolve.js";

/**
 * Removes the lock files a killed writer left on `ref` (`<ref>.lock`) and on `packed-refs`, when
 * older than `before`: git refuses every later move of the ref while its lock exists. A lock
 * newer than `before` may belong to a live writer and stays. True when one was removed.
 */
export async function removeStaleRefLocks(
  repo: Pick<GitRepository, "gitdir">,
  ref: string,
  before: Date,
): Promise<boolean> {
  let removed = false;
  for (const lock of [join(repo.gitdir, `${ref}.lock`), join(repo.gitdir, "packed-refs.lock")]) {
    try {
      if ((await stat(lock)).mtime >= before) continue;
      await unlink(lock);
      removed = true;
    } catch {
      // No such lock (the usual case), or removed meanwhile.
    }
  }
  if (removed) refsChanged(repo.gitdir);
  return removed;
}

/** The commit a ref points at on disk now (undefined: no such ref); for reconciling journalled moves. */
export function refTarget(repo: Pick<GitRepository, "gitdir">, ref: string): Promise<string | undefined> {
  return readRef(isoContext(repo), ref);
}
