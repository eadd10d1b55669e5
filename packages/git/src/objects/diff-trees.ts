import { diffLines } from "diff";
import type { IsoContext } from "./iso.js";
import { objectInfo, readBlobCached } from "./object-cache.js";
import { readTreeEntries, type TreeEntry } from "./tree-entries.js";

/** A file a commit changed, with its line counts (zero for binary or very large files). */
export interface ChangedFile {
  readonly filename: string;
  readonly status: "added" | "modified" | "removed";
  readonly additions: number;
  readonly deletions: number;
}

const MAX_DIFF_BYTES = 1024 * 1024;

async function blobText(ctx: IsoContext, sha: string | undefined): Promise<string | undefined> {
  if (!sha) return "";
  if (((await objectInfo(ctx, sha))?.size ?? 0) > MAX_DIFF_BYTES) return undefined;
  const blob = await readBlobCached(ctx, sha);
  if (blob.includes(0)) return undefined;
  return Buffer.from(blob).toString("utf8");
}

async function lineCounts(ctx: IsoContext, before?: string, after?: string): Promise<[number, number]> {
  const [a, b] = await Promise.all([blobText(ctx, before), blobText(ctx, after)]);
  if (a === undefined || b === undefined) return [0, 0];
  let additions = 0;
  let deletions = 0;
  for (const part of diffLines(a, b)) {
    if (part.added) additions += part.count ?? 0;
    else if (part.removed) deletions += part.count ?? 0;
  }
  return [additions, deletions];
}

async function entries(ctx: IsoContext, tree: string | undefined): Promise<Map<string, TreeEntry>> {
  if (!tree) return new Map();
  return new Map((await readTreeEntries(ctx, tree)).map((entry) => [entry.name, entry]));
}

/**
 * Lists the files that differ between two trees (either may be absent, meaning empty), with
 * added and deleted line counts, sorted by path.
 */
export async function diffTrees(
  ctx: IsoContext,
  before: string | undefined,
  after: string | undefined,
  prefix = "",
): Promise<ChangedFile[]> {
  const [a, b] = await Promise.all([entries(ctx, before), entries(ctx, after)]);
  const names = [...new Set([...a.keys(), ...b.keys()])].sort();
  const changed: ChangedFile[] = [];
  for (const name of names) {
    const old = a.get(name);
    const now = b.get(name);
    if (old && now && old.sha === now.sha && old.mode === now.mode) continue;
    const path = `${prefix}${name}`;
    const oldTree = old?.type === "tree" ? old.sha : undefined;
    const newTree = now?.type === "tree" ? now.sha : undefined;
    if (oldTree || newTree) changed.push(...(await diffTrees(ctx, oldTree, newTree, `${path}/`)));
    const oldBlob = old && old.type !== "tree" ? old : undefined;
    const newBlob = now && now.type !== "tree" ? now : undefined;
    if (!oldBlob && !newBlob) continue;
    const status = !oldBlob ? "added" : !newBlob ? "removed" : "modified";
    const countable = (entry?: TreeEntry) => (entry?.type === "blob" ? entry.sha : undefined);
    const [additions, deletions] =
      oldBlob?.type === "commit" || newBlob?.type === "commit"
        ? [0, 0]
        : await lineCounts(ctx, countable(oldBlob), countable(newBlob));
    changed.push({ filename: path, status, additions, deletions });
  }
  return changed.sort((x, y) => (x.filename < y.filename ? -1 : x.filename > y.filename ? 1 : 0));
}
