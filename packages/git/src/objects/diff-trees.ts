import { diffLines } from "diff";
import type { IsoContext } from "./iso.js";
import { objectInfos, readBlobsCached } from "./object-cache.js";
import { readTreeEntries, type TreeEntry } from "./tree-entries.js";

/** A file a commit changed, with its line counts (zero for binary or very large files). */
export interface ChangedFile {
  readonly filename: string;
  readonly status: "added" | "modified" | "removed";
  readonly additions: number;
  readonly deletions: number;
}

/** A blob larger than this counts no lines (as a binary file), so a diff's cost stays bounded. */
const MAX_DIFF_BYTES = 1024 * 1024;
/** Blob contents read at once while counting lines: one round trip of git per batch. */
const MAX_BATCH_BYTES = 8 * 1024 * 1024;
const MAX_BATCH_BLOBS = 1024;

/** One changed path: the blobs on either side whose lines count (absent: none, or not countable). */
interface Change {
  readonly filename: string;
  readonly status: ChangedFile["status"];
  readonly before: string | undefined;
  readonly after: string | undefined;
  /** A submodule (or other non-blob) side: no line counts, as git shows none for it. */
  readonly uncountable: boolean;
}

async function entries(ctx: IsoContext, tree: string | undefined): Promise<Map<string, TreeEntry>> {
  if (!tree) return new Map();
  return new Map((await readTreeEntries(ctx, tree)).map((entry) => [entry.name, entry]));
}

/**
 * The paths that differ between two trees, without reading any blob. Subtrees are compared
 * concurrently, so their reads share round trips of git.
 */
async function changedPaths(
  ctx: IsoContext,
  before: string | undefined,
  after: string | undefined,
  prefix: string,
): Promise<Change[]> {
  const [a, b] = await Promise.all([entries(ctx, before), entries(ctx, after)]);
  const changes: Change[] = [];
  const below: Promise<Change[]>[] = [];
  for (const name of new Set([...a.keys(), ...b.keys()])) {
    const old = a.get(name);
    const now = b.get(name);
    if (old && now && old.sha === now.sha && old.mode === now.mode) continue;
    const path = `${prefix}${name}`;
    const oldTree = old?.type === "tree" ? old.sha : undefined;
    const newTree = now?.type === "tree" ? now.sha : undefined;
    if (oldTree || newTree) below.push(changedPaths(ctx, oldTree, newTree, `${path}/`));
    const oldBlob = old && old.type !== "tree" ? old : undefined;
    const newBlob = now && now.type !== "tree" ? now : undefined;
    if (!oldBlob && !newBlob) continue;
    changes.push({
      filename: path,
      status: !oldBlob ? "added" : !newBlob ? "removed" : "modified",
      before: oldBlob?.type === "blob" ? oldBlob.sha : undefined,
      after: newBlob?.type === "blob" ? newBlob.sha : undefined,
      uncountable: oldBlob?.type === "commit" || newBlob?.type === "commit",
    });
  }
  for (const nested of await Promise.all(below)) changes.push(...nested);
  return changes;
}

/** Lines of a text: newlines, plus one for a last line without one (what `diffLines` counts). */
function lineCount(bytes: Uint8Array): number {
  let lines = 0;
  for (let index = 0; index < bytes.length; index++) if (bytes[index] === 10) lines++;
  return bytes.length > 0 && bytes[bytes.length - 1] !== 10 ? lines + 1 : lines;
}

/** Added and deleted lines between two versions of a file; [0, 0] when either side is binary. */
function lineCounts(before: Uint8Array | undefined, after: Uint8Array | undefined): [number, number] {
  if (before?.includes(0) || after?.includes(0)) return [0, 0];
  if (!before || before.length === 0) return [after ? lineCount(after) : 0, 0];
  if (!after || after.length === 0) return [0, lineCount(before)];
  let additions = 0;
  let deletions = 0;
  for (const part of diffLines(Buffer.from(before).toString("utf8"), Buffer.from(after).toString("utf8"))) {
    if (part.added) additions += part.count ?? 0;
    else if (part.removed) deletions += part.count ?? 0;
  }
  return [additions, deletions];
}

/**
 * Lists the files that differ between two trees (either may be absent, meaning empty), with
 * added and deleted line counts, sorted by path. The trees are compared first; then the blobs
 * whose lines count are read in batches (one round trip of git per batch, whatever the number of
 * files, so a commit adding thousands of files costs a few round trips), never more than
 * {@link MAX_BATCH_BYTES} at once.
 */
export async function diffTrees(
  ctx: IsoContext,
  before: string | undefined,
  after: string | undefined,
): Promise<ChangedFile[]> {
  const changes = await changedPaths(ctx, before, after, "");
  const counted = changes.filter((change) => !change.uncountable);
  const shas = [...new Set(counted.flatMap((c) => [c.before, c.after]).filter((s): s is string => !!s))];
  const sizes = new Map<string, number>();
  (await objectInfos(ctx, shas)).forEach((header, index) => {
    sizes.set(shas[index] as string, header?.size ?? Number.POSITIVE_INFINITY);
  });
  const tooLarge = (sha: string | undefined) => sha !== undefined && (sizes.get(sha) ?? 0) > MAX_DIFF_BYTES;
  const counts = new Map<Change, [number, number]>();
  let batch: Change[] = [];
  let batchBytes = 0;
  const flush = async () => {
    const wanted = [...new Set(batch.flatMap((c) => [c.before, c.after]).filter((s): s is string => !!s))];
    const read = await readBlobsCached(ctx, wanted);
    const bytes = new Map(wanted.map((sha, index) => [sha, read[index]]));
    for (const change of batch) {
      const side = (sha: string | undefined) => (sha ? (bytes.get(sha) ?? new Uint8Array()) : undefined);
      counts.set(change, lineCounts(side(change.before), side(change.after)));
    }
    batch = [];
    batchBytes = 0;
  };
  for (const change of counted) {
    if (tooLarge(change.before) || tooLarge(change.after)) continue;
    const size =
      (change.before ? (sizes.get(change.before) ?? 0) : 0) +
      (change.after ? (sizes.get(change.after) ?? 0) : 0);
    if (batch.length > 0 && (batchBytes + size > MAX_BATCH_BYTES || batch.length >= MAX_BATCH_BLOBS))
      await flush();
    batch.push(change);
    batchBytes += size;
  }
  if (batch.length > 0) await flush();
  return changes
    .map((change) => {
      const [additions, deletions] = counts.get(change) ?? [0, 0];
      return { filename: change.filename, status: change.status, additions, deletions };
    })
    .sort((x, y) => (x.filename < y.filename ? -1 : x.filename > y.filename ? 1 : 0));
}
