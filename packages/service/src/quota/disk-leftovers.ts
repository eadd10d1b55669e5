import { rm } from "node:fs/promises";
import type { Leftover, LfsStore, RepoStore } from "@kiln/git";
import type { BlobKind } from "../cron/blob-sweep.js";

/** A leftover as the doctor reports it: whether it is old enough to go, and whether it went. */
export interface LeftoverFinding extends Leftover {
  /** Untouched for longer than the grace period: no work going on can own it. */
  readonly stale: boolean;
  readonly removed: boolean;
}

/** Where unfinished work leaves files: the repositories, the LFS store and each kind of stored bytes. */
export interface LeftoverSources {
  readonly repos: RepoStore;
  readonly lfs: LfsStore;
  readonly blobKinds: () => readonly BlobKind[];
}

/**
 * Finds what unfinished work left on disk — git's push quarantines and temporary packs, the
 * repository store's `.tmp`, partial LFS uploads, unfinished uploads of attachments, packages,
 * artifacts and avatars — and with `fix` removes those untouched for longer than `graceMs`. A
 * younger one may belong to a push or an upload going on and is never touched.
 */
export async function collectLeftovers(
  sources: LeftoverSources,
  options: { readonly fix: boolean; readonly graceMs: number },
): Promise<LeftoverFinding[]> {
  const cutoff = Date.now() - options.graceMs;
  const stale = (l: { modified: Date }) => l.modified.getTime() <= cutoff;
  const findings: LeftoverFinding[] = [];
  for (const leftover of [...(await sources.repos.leftovers()), ...(await sources.lfs.leftovers())]) {
    const old = stale(leftover);
    const removed = old && options.fix && (await remove(leftover.path));
    findings.push({ ...leftover, stale: old, removed });
  }
  for (const kind of sources.blobKinds()) {
    const found = await kind.store.unfinished();
    if (found.length === 0) continue;
    // The store's sweep removes its old unfinished uploads (and old blobs no row refers to, which
    // the doctor's orphan check reports); what it left is still there.
    const left =
      options.fix && found.some(stale)
        ? await kind.store
            .sweep(kind.referenced, options.graceMs)
            .then(async () => new Set((await kind.store.unfinished()).map((u) => u.path)))
        : undefined;
    for (const upload of found) {
      findings.push({
        ...upload,
        kind: `${kind.name} upload`,
        stale: stale(upload),
        removed: left !== undefined && !left.has(upload.path),
      });
    }
  }
  return findings;
}

async function remove(path: string): Promise<boolean> {
  try {
    await rm(path, { recursive: true, force: true });
    return true;
  } catch {
    return false;
  }
}
