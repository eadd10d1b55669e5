import type { GitRepository } from "../disk/git-repository.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { type IsoContext, isoContext } from "./iso.js";
import { objectInfos, readCommitCached } from "./object-cache.js";
import { objectType, peel, resolveCommit } from "./resolve.js";
import { treeEntriesWindow, windowTree } from "./tree-listing.js";

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

/**
 * Lists a tree named by a tree sha, commit sha, branch or tag, optionally recursively, one
 * page at a time as Forgejo's `/git/trees/{sha}` does. Only the page is decoded: a recursive or
 * large listing is read from `git ls-tree`, the entries outside the page only counted
 * (tree-listing.ts). Throws not-found.
 */
export async function getTree(
  repo: GitRepository,
  name: string,
  options: GetTreeOptions = {},
): Promise<TreeListing> {
  const ctx = isoContext(repo);
  const sha = await treeOf(ctx, name);
  const page = Math.max(1, Math.floor(options.page ?? 1));
  const perPage = Math.max(1, Math.floor(options.perPage ?? 1000));
  const start = (page - 1) * perPage;
  const window = options.recursive
    ? await windowTree(ctx, sha, { recursive: true, start, count: perPage, countAll: true })
    : await treeEntriesWindow(ctx, sha, start, perPage);
  const slice: TreeListingEntry[] = window.entries.map((entry) => ({
    path: "path" in entry ? (entry.path as string) : entry.name,
    mode: entry.mode,
    type: entry.type,
    sha: entry.sha,
  }));
  const headers = await objectInfos(
    ctx,
    slice.filter((entry) => entry.type === "blob").map((entry) => entry.sha),
  );
  let blob = 0;
  const entries = slice.map((entry) =>
    entry.type === "blob" ? { ...entry, size: headers[blob++]?.size ?? 0 } : entry,
  );
  return { sha, entries, truncated: start + perPage < window.total, page, totalCount: window.total };
}
