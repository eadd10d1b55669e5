import type { GitRepository } from "../disk/git-repository.js";
import { lookupRef, type RefSnapshot, refSnapshot } from "./repo-state.js";

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * Forgejo's legacy `raw/{ref}/{path}` reading (RepoRefForAPI without `ref`): the shortest leading
 * part of the path that names a branch, else a tag, else a full commit sha as first segment;
 * otherwise the whole path with no ref. Looked up in one snapshot of the refs, reading no object.
 * `kinds` limits what is looked for (the web's `/src/branch/…` looks for branches only).
 */
export async function splitRefFromPath(
  repo: Pick<GitRepository, "gitdir">,
  path: string,
  kinds: readonly RefPathKind[] = ["branch", "tag", "commit"],
): Promise<{ readonly ref?: string; readonly path: string }> {
  return refInPath(await refSnapshot(repo.gitdir), path, kinds);
}

/** What a leading part of a path may name: a branch, a tag, or (first segment) a full sha. */
export type RefPathKind = "branch" | "tag" | "commit";

const PREFIX_OF = { branch: "refs/heads/", tag: "refs/tags/" } as const;

/** {@link splitRefFromPath} in a snapshot of the refs already taken. */
export function refInPath(
  snapshot: RefSnapshot,
  path: string,
  kinds: readonly RefPathKind[] = ["branch", "tag", "commit"],
): { readonly ref?: string; readonly path: string } {
  const parts = path.split("/");
  for (const kind of kinds) {
    if (kind === "commit") continue;
    const prefix = PREFIX_OF[kind];
    let candidate = "";
    for (let i = 0; i < parts.length; i++) {
      candidate = i === 0 ? (parts[0] ?? "") : `${candidate}/${parts[i]}`;
      if (lookupRef(snapshot, prefix + candidate) !== undefined) {
        return { ref: candidate, path: parts.slice(i + 1).join("/") };
      }
    }
  }
  const [first = ""] = parts;
  if (kinds.includes("commit") && FULL_SHA.test(first)) return { ref: first, path: parts.slice(1).join("/") };
  return { path };
}
