import { GitError, type GitRepository, getBranch, getTag } from "@kiln/git";

/** What a user-given ref names, as Forgejo's GetRefType reports it (used in `html_url`s). */
export type RefKind = "branch" | "tag" | "commit";

async function exists(read: () => Promise<unknown>): Promise<boolean> {
  try {
    await read();
    return true;
  } catch (err) {
    if (err instanceof GitError && err.kind === "not_found") return false;
    throw err;
  }
}

/** Whether `name` is a branch of the repository. */
export function isBranch(git: GitRepository, name: string): Promise<boolean> {
  return exists(() => getBranch(git, name));
}

/** Whether `name` is a tag of the repository. */
export function isTag(git: GitRepository, name: string): Promise<boolean> {
  return exists(() => getTag(git, name));
}

/** A branch, else a tag, else (anything that resolved to a commit) a commit. */
export async function refKind(git: GitRepository, ref: string): Promise<RefKind> {
  if (await isBranch(git, ref)) return "branch";
  if (await isTag(git, ref)) return "tag";
  return "commit";
}

/**
 * Forgejo's legacy `raw/{ref}/{path}` reading (RepoRefForAPI without `ref`): the shortest leading
 * part of the path that names a branch, else a tag, else a full commit sha as first segment;
 * otherwise the whole path on the default branch (`ref` undefined).
 */
export async function splitRefFromPath(
  git: GitRepository,
  path: string,
): Promise<{ readonly ref?: string; readonly path: string }> {
  const parts = path.split("/");
  for (const test of [isBranch, isTag]) {
    for (let i = 1; i <= parts.length; i++) {
      const candidate = parts.slice(0, i).join("/");
      if (await test(git, candidate)) return { ref: candidate, path: parts.slice(i).join("/") };
    }
  }
  const [first = ""] = parts;
  if (/^[0-9a-f]{40}$/.test(first)) return { ref: first, path: parts.slice(1).join("/") };
  return { path };
}
