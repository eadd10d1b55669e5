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
