import fs from "node:fs";
import type { GitRepository } from "../storage/git-repository.js";

/** The arguments every isomorphic-git call takes for a bare repository, with a cache for one operation. */
export interface IsoContext {
  readonly fs: typeof fs;
  readonly gitdir: string;
  readonly cache: object;
}

/** Builds the isomorphic-git arguments for `repo`; pass one context through a whole operation to share its cache. */
export function isoContext(repo: Pick<GitRepository, "gitdir">): IsoContext {
  return { fs, gitdir: repo.gitdir, cache: {} };
}

/** Whether an isomorphic-git error means the thing asked for does not exist. */
export function isIsoNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "NotFoundError" || code === "ENOENT";
}
