import { lstat, readdir } from "node:fs/promises";
import { join } from "node:path";

/**
 * A file or directory left behind by work that did not finish: a push's object quarantine, a
 * half-written upload, a repository being built or discarded. While the work goes on it is in
 * use; once the process doing it is gone nothing removes it but a sweep (`kiln doctor quota`).
 */
export interface Leftover {
  /** What left it, for reports (`push quarantine`, `LFS upload`, …). */
  readonly kind: string;
  readonly path: string;
  /** Bytes of the regular files in it. */
  readonly bytes: number;
  /** The newest modification time in it: work going on keeps touching it. */
  readonly modified: Date;
}

/**
 * Entries of an object directory that git creates while it receives or fetches objects and
 * removes when it is done: the receive quarantine (`tmp_objdir-incoming-*`, `incoming-*` before
 * git 2.35) and index-pack's temporary packs (`pack/tmp_pack_*`, `tmp_idx_*`, `tmp_rev_*`).
 * They are never part of the repository.
 */
export const QUARANTINE = /^(tmp_objdir-|incoming-)/;
const TEMP_PACK = /^tmp_(pack|idx|rev)_/;

/** Bytes and newest modification time of the regular files under `path` (symbolic links not followed). */
export async function measureEntry(path: string): Promise<{ bytes: number; modified: Date }> {
  const info = await lstat(path);
  let bytes = info.isFile() ? info.size : 0;
  let newest = info.mtimeMs;
  if (info.isDirectory()) {
    for (const name of await entries(path)) {
      const inner = await measureEntry(join(path, name)).catch(() => undefined);
      if (!inner) continue;
      bytes += inner.bytes;
      newest = Math.max(newest, inner.modified.getTime());
    }
  }
  return { bytes, modified: new Date(newest) };
}

/** The entries of `dir` whose names match, measured; none when `dir` does not exist. */
export async function leftoversIn(dir: string, match: RegExp | null, kind: string): Promise<Leftover[]> {
  const found: Leftover[] = [];
  for (const name of await entries(dir)) {
    if (match && !match.test(name)) continue;
    const path = join(dir, name);
    const measured = await measureEntry(path).catch(() => undefined);
    if (measured) found.push({ kind, path, ...measured });
  }
  return found;
}

/** The quarantines and temporary packs left in a bare repository's object directory. */
export async function gitLeftovers(gitdir: string): Promise<Leftover[]> {
  const objects = join(gitdir, "objects");
  return [
    ...(await leftoversIn(objects, QUARANTINE, "push quarantine")),
    ...(await leftoversIn(join(objects, "pack"), TEMP_PACK, "temporary pack")),
  ];
}

/**
 * The leftovers of a repository store rooted at `root` (`<owner>/<name>.git`): git's in every
 * repository and wiki, and the directories of `<root>/.tmp`.
 */
export async function storeLeftovers(root: string): Promise<Leftover[]> {
  const found = await leftoversIn(join(root, ".tmp"), null, "repository temporary directory");
  for (const owner of await entries(root)) {
    if (owner === ".tmp") continue;
    for (const name of await entries(join(root, owner))) {
      if (name.endsWith(".git")) found.push(...(await gitLeftovers(join(root, owner, name))));
    }
  }
  return found;
}

/** Whether `path`, relative to a git directory, is one of git's temporary object entries. */
export function isGitLeftover(relative: readonly string[]): boolean {
  const [first, second, third] = relative;
  if (first !== "objects" || second === undefined) return false;
  if (QUARANTINE.test(second)) return true;
  return second === "pack" && third !== undefined && TEMP_PACK.test(third);
}

async function entries(dir: string): Promise<string[]> {
  try {
    return await readdir(dir);
  } catch {
    return [];
  }
}
