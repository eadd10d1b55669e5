import type { GitRepository } from "../storage/git-repository.js";
import { lookupRef, type RefSnapshot, refSnapshot } from "./repo-state.js";

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Forgejo's legacy `raw/{ref}/{path}` reading (RepoRefForAPI without `ref`): the shortest leading
 * part of the path that names a branch, else a tag, else a full commit sha as first segment;
 * otherwise the whole path with no ref. Looked up in one snapshot of the refs, reading no object.
 */
export async function splitRefFromPath(
  repo: Pick<GitRepository, "gitdir">,
  path: string,
): Promise<{ readonly ref?: string; readonly path: string }> {
  return refInPath(await refSnapshot(repo.gitdir), path);
}

/** {@link splitRefFromPath} in a snapshot of the refs already taken. */
export function refInPath(
  snapshot: RefSnapshot,
  path: string,
): { readonly ref?: string; readonly path: string } {
  const parts = path.split("/");
  for (const prefix of ["refs/heads/", "refs/tags/"]) {
    let candidate = "";
    for (let i = 0; i < parts.length; i++) {
      candidate = i === 0 ? (parts[0] ?? "") : `${candidate}/${parts[i]}`;
      if (lookupRef(snapshot, prefix + candidate) !== undefined) {
        return { ref: candidate, path: parts.slice(i + 1).join("/") };
      }
    }
  }
  const [first = ""] = parts;
  if (FULL_SHA.test(first)) return { ref: first, path: parts.slice(1).join("/") };
  return { path };
}
