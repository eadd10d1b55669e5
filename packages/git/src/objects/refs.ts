import type { GitRepository } from "../disk/git-repository.js";
import { isoContext } from "./iso.js";
import { lookupRef, refSnapshot } from "./repo-state.js";
import { type ObjectType, objectType } from "./resolve.js";

/** The namespaces `/git/refs` lists (Forgejo's), each with its trailing slash. */
const LISTED = ["refs/heads/", "refs/tags/", "refs/notes/", "refs/pull/"];

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
  const snapshot = await refSnapshot(ctx.gitdir);
  const refs: RefInfo[] = [];
  for (const ref of snapshot.names) {
    if (!ref.startsWith(wanted) || !LISTED.some((dir) => ref.startsWith(dir))) continue;
    const sha = lookupRef(snapshot, ref);
    const type = sha ? await objectType(ctx, sha) : undefined;
    if (sha && type) refs.push({ ref, sha, type });
  }
  return refs;
}
