import { GitNotFoundError } from "../errors/git-error.js";
import type { GitRepository } from "../storage/git-repository.js";
import { type IsoContext, isoContext } from "./iso.js";
import { objectInfos, readCommitCached } from "./object-cache.js";
import { objectType, peel, resolveCommit } from "./resolve.js";
import { readTreeEntries } from "./tree-entries.js";

/** One entry of a tree listing (Forgejo's `GitEntry`); `size` is set for blobs. */
export interface TreeListingEntry {
  readonly path: string;
  readonly mode: string;
  readonly type: "blob" | "tree" | "commit";
  readonly sha: string;
  readonly size?: number;
}

/** A page of a tree listing (Forgejo's `GitTreeResponse` without URLs). */
export interface TreeListing {
  readonly sha: string;
  readonly entries: readonly TreeListingEntry[];
  readonly truncated: boolean;
  readonly page: number;
  readonly totalCount: number;
}

/** Options of {@link getTree}. */
export interface GetTreeOptions {
  readonly recursive?: boolean;
  readonly page?: number;
  /** Entries per page; Forgejo's default is 1000. */
  readonly perPage?: number;
}

async function treeOf(ctx: IsoContext, name: string): Promise<string> {
  if (/^[0-9a-f]{40}$/.test(name) && (await objectType(ctx, name))) {
    const peeled = await peel(ctx, name);
    if (peeled.type === "tree") return peeled.oid;
    if (peeled.type === "commit") return (await readCommitCached(ctx, peeled.oid)).commit.tree;
    throw new GitNotFoundError(`${name} is not a tree`);
  }
  const commit = await resolveCommit(ctx, name);
  return (await readCommitCached(ctx, commit)).commit.tree;
}

async function collect(
  ctx: IsoContext,
  tree: string,
  prefix: string,
  recursive: boolean,
  out: TreeListingEntry[],
) {
  for (const entry of await readTreeEntries(ctx, tree)) {
    const path = `${prefix}${entry.name}`;
    out.push({ path, mode: entry.mode, type: entry.type, sha: entry.sha });
    if (recursive && entry.type === "tree") await collect(ctx, entry.sha, `${path}/`, recursive, out);
  }
}

/**
 * Lists a tree named by a tree sha, commit sha, branch or tag, optionally recursively, one
 * page at a time as Forgejo's `/git/trees/{sha}` does. Throws not-found.
 */
export async function getTree(
  repo: GitRepository,
  name: string,
  options: GetTreeOptions = {},
): Promise<TreeListing> {
  const ctx = isoContext(repo);
  const sha = await treeOf(ctx, name);
  const all: TreeListingEntry[] = [];
  await collect(ctx, sha, "", options.recursive ?? false, all);
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const perPage = Math.max(1, Math.floor(options.perPage ?? 1000));
  const start = (page - 1) * perPage;
  const slice = all.slice(start, start + perPage);
  const headers = await objectInfos(
    ctx,
    slice.filter((entry) => entry.type === "blob").map((entry) => entry.sha),
  );
  let blob = 0;
  const entries = slice.map((entry) =>
    entry.type === "blob" ? { ...entry, size: headers[blob++]?.size ?? 0 } : entry,
  );
  return { sha, entries, truncated: start + perPage < all.length, page, totalCount: all.length };
}
