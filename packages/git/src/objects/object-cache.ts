import git from "isomorphic-git";
import type { IsoContext } from "./iso.js";

/**
 * Parsed commits and trees remembered by repository and object id; git objects never change, so
 * nothing goes stale. The repository is part of the key: an object of one repository must never
 * be answered for another that does not hold it.
 */
const MAX_OBJECTS = 50_000;
/** A tree with more entries than this is not remembered (it would crowd out the rest). */
const MAX_TREE_ENTRIES = 5_000;

type IsoCommit = Awaited<ReturnType<typeof git.readCommit>>;
type IsoTree = Awaited<ReturnType<typeof git.readTree>>;

const objects = new Map<string, IsoCommit | IsoTree>();

function remember(key: string, value: IsoCommit | IsoTree): void {
  objects.set(key, value);
  if (objects.size > MAX_OBJECTS) {
    const oldest = objects.keys().next().value;
    if (oldest !== undefined) objects.delete(oldest);
  }
}

function recall<T extends IsoCommit | IsoTree>(key: string, kind: "commit" | "tree"): T | undefined {
  const value = objects.get(key);
  if (!value || ("commit" in value ? "commit" : "tree") !== kind) return undefined;
  objects.delete(key);
  objects.set(key, value);
  return value as T;
}

/**
 * A commit by id, parsed once: later reads of the same id in the same repository come from
 * memory, without a file-system lookup or inflation. The caller must not modify the result.
 */
export async function readCommitCached(ctx: IsoContext, oid: string): Promise<IsoCommit> {
  const key = `${ctx.gitdir}\u0000${oid}`;
  const known = recall<IsoCommit>(key, "commit");
  if (known) return known;
  const read = await git.readCommit({ ...ctx, oid });
  remember(key, read);
  return read;
}

/** A tree by id, parsed once (trees up to {@link MAX_TREE_ENTRIES} entries); as {@link readCommitCached}. */
export async function readTreeCached(ctx: IsoContext, oid: string): Promise<IsoTree> {
  const key = `${ctx.gitdir}\u0000${oid}`;
  const known = recall<IsoTree>(key, "tree");
  if (known) return known;
  const read = await git.readTree({ ...ctx, oid });
  if (read.tree.length <= MAX_TREE_ENTRIES) remember(key, read);
  return read;
}
