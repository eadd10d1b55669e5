import type { BlobStore } from "@kiln/blobs";
import type { CronTask } from "./cron-task.js";

/**
 * One kind of stored bytes (attachments, packages, Actions artifacts): its blob store and which
 * keys its rows still refer to. Blobs are content-addressed, so deleting a row never deletes a
 * file: the usage changes at once, and the disk space comes back when the sweep finds the blob
 * unreferenced.
 */
export interface BlobKind {
  /** Names the sweep task `sweep_<name>` (`attachments`, `packages`, `artifacts`). */
  readonly name: string;
  readonly store: BlobStore;
  /** The subset of `keys` some row refers to (one query per batch). */
  readonly referenced: (keys: readonly string[]) => Promise<ReadonlySet<string>>;
}

/**
 * How old an unreferenced blob or an unfinished upload must be before a scheduled sweep removes
 * it: an upload that is being written, or stored but not yet recorded, is younger.
 */
export const SWEEP_GRACE_MS = 60 * 60 * 1000;

/** The cron task that sweeps a kind: `sweep_<kind>`, daily, with an hour's grace. */
export function blobSweepTask(kind: BlobKind): CronTask {
  return {
    name: `sweep_${kind.name}`,
    description: `Remove stored ${kind.name} files nothing refers to and unfinished uploads older than an hour`,
    schedule: "@every 24h",
    async run() {
      const removed = await kind.store.sweep(kind.referenced, SWEEP_GRACE_MS);
      return `removed ${removed} file${removed === 1 ? "" : "s"}`;
    },
  };
}

/**
 * How many blobs of a kind no row refers to, whatever their age (`kiln doctor`): the store's
 * sweep walks every blob and asks about each batch, and with no blob old enough removes nothing.
 */
export async function countUnreferenced(kind: BlobKind): Promise<number> {
  let unreferenced = 0;
  await kind.store.sweep(async (keys) => {
    const wanted = await kind.referenced(keys);
    unreferenced += keys.filter((key) => !wanted.has(key)).length;
    return wanted;
  }, Number.MAX_SAFE_INTEGER);
  return unreferenced;
}
