import git from "isomorphic-git";
import type { GitRepository } from "../storage/git-repository.js";
import { isoContext } from "./iso.js";
import { type ObjectType, objectType, readRef } from "./resolve.js";

/** A ref and the object it points at (Forgejo's `Reference`). */
export interface RefInfo {
  /** Full ref name, e.g. `refs/heads/main`. */
  readonly ref: string;
  readonly sha: string;
  readonly type: ObjectType;
}

/**
 * Lists refs under `refs/` sorted by name. With `prefix` (`heads`, `tags/v1`, `refs/heads/ma`…)
 * only refs whose full name starts with `refs/<prefix>` are returned, like Forgejo's `/git/refs/{ref}`.
 * The prefix only filters names read from the repository; it never becomes a path.
 */
export async function listRefs(repo: GitRepository, prefix = ""): Promise<RefInfo[]> {
  const ctx = isoContext(repo);
  const wanted = prefix.startsWith("refs/") ? prefix : `refs/${prefix}`;
  const names = new Set<string>();
  for (const dir of ["refs/heads", "refs/tags", "refs/notes", "refs/pull"]) {
    for (const name of await git.listRefs({ fs: ctx.fs, gitdir: ctx.gitdir, filepath: dir })) {
      names.add(`${dir}/${name}`);
    }
  }
  const refs: RefInfo[] = [];
  for (const ref of [...names].sort()) {
    if (!ref.startsWith(wanted)) continue;
    const sha = await readRef(ctx, ref);
    const type = sha ? await objectType(ctx, sha) : undefined;
    if (sha && type) refs.push({ ref, sha, type });
  }
  return refs;
}
