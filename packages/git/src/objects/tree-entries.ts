import { GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { type IsoContext, isIsoNotFound } from "./iso.js";
import { isLargeTree, lookupLargeTree } from "./large-tree.js";
import { readTreeCached } from "./object-cache.js";
import type { TreeEntry } from "./tree-entry.js";

export type { TreeEntry } from "./tree-entry.js";

/** Reads the entries of a tree object; throws not-found when it is missing. */
export async function readTreeEntries(ctx: IsoContext, treeSha: string): Promise<TreeEntry[]> {
  try {
    const { tree } = await readTreeCached(ctx, treeSha);
    return tree.map((entry) => ({ name: entry.path, mode: entry.mode, type: entry.type, sha: entry.oid }));
  } catch (error) {
    if (isIsoNotFound(error)) throw new GitNotFoundError(`tree ${treeSha} does not exist`, { cause: error });
    throw error;
  }
}

/**
 * Checks and normalizes a repository path: no leading or trailing `/`, no empty, `.` or `..`
 * segments, nothing under `.git`. The root is the empty string.
 */
export function normalizeRepoPath(path: string): string {
  const trimmed = trimSlashes(path);
  if (trimmed === "") return "";
  const segments = trimmed.split("/");
  for (const segment of segments) {
    if (segment === "" || segment === "." || segment === ".." || segment.toLowerCase() === ".git") {
      throw new GitInvalidArgumentError(`invalid file path: ${JSON.stringify(path)}`);
    }
    if (segment.includes("\0")) throw new GitInvalidArgumentError("file path contains NUL");
  }
  return segments.join("/");
}

/**
 * The entry at `path` below the tree `rootTree`, or undefined when no such path exists. A
 * directory too large to parse in process (tree-listing.ts) is asked of git by name.
 */
export async function entryAtPath(
  ctx: IsoContext,
  rootTree: string,
  path: string,
): Promise<TreeEntry | undefined> {
  const normalized = normalizeRepoPath(path);
  if (normalized === "") return { name: "", mode: "040000", type: "tree", sha: rootTree };
  let tree = rootTree;
  const segments = normalized.split("/");
  for (let index = 0; index < segments.length; index++) {
    const name = segments[index] as string;
    const entry = (await isLargeTree(ctx, tree))
      ? await lookupLargeTree(ctx, tree, name)
      : (await readTreeEntries(ctx, tree)).find((candidate) => candidate.name === name);
    if (!entry) return undefined;
    if (index === segments.length - 1) return entry;
    if (entry.type !== "tree") return undefined;
    tree = entry.sha;
  }
  return undefined;
}

/** `text` without its leading and trailing `/`s, by a scan: `/\/+$/` is quadratic in a run of slashes. */
function trimSlashes(text: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text.charCodeAt(start) === 47) start++;
  while (end > start && text.charCodeAt(end - 1) === 47) end--;
  return text.slice(start, end);
}
