import fs from "node:fs";
import { join } from "node:path";
import { FileSystem } from "isomorphic-git/models";
import type { GitRepository } from "../disk/git-repository.js";
import { openFiles } from "../util/work-limits.js";

/** The arguments every isomorphic-git call takes for a bare repository, with its object cache. */
export interface IsoContext {
  readonly fs: typeof fs;
  readonly gitdir: string;
  readonly cache: object;
}

/** Repositories whose parsed packs are kept between requests, least recently used first out. */
const MAX_CACHED_REPOSITORIES = 16;
/** A repository whose packs are larger than this is not cached: each operation reads afresh. */
const MAX_CACHED_PACK_BYTES = 64 * 1024 * 1024;
/** The packs of all cached repositories together stay below this. */
const TOTAL_CACHED_PACK_BYTES = 256 * 1024 * 1024;

interface CacheEntry {
  /** The pack directory's modification time when the cache was made: a new or removed pack changes it. */
  readonly packDirMtimeMs: number;
  readonly packBytes: number;
  readonly cache: object;
}

const caches = new Map<string, CacheEntry>();

/** The file operations isomorphic-git uses, each holding one of the `[git] MAX_OPEN_FILES` slots. */
const FILE_OPERATIONS = [
  "readFile",
  "writeFile",
  "mkdir",
  "rmdir",
  "unlink",
  "stat",
  "lstat",
  "readdir",
  "readlink",
  "symlink",
  "rm",
] as const;

const limitedPromises = Object.fromEntries(
  FILE_OPERATIONS.map((name) => [
    name,
    (...args: unknown[]) =>
      openFiles.run("", () => (fs.promises[name] as (...a: unknown[]) => Promise<unknown>)(...args)),
  ]),
) as unknown as typeof fs.promises;

/**
 * Node's fs as isomorphic-git wraps it, wrapped once: isomorphic-git wraps whatever `fs` it is
 * given on every call, and its check of the kind of fs (calling `readFile()` without arguments
 * and catching the error) costs more than a cached object read. An already wrapped fs is used
 * as it is. Every operation holds an open-file slot, so however many reads run at once (a
 * repository of thousands of loose objects or refs), the process's descriptors are not
 * exhausted. `promises` stays reachable for code that reads files directly.
 */
const wrappedFs = Object.assign(new FileSystem({ promises: limitedPromises }), {
  promises: limitedPromises,
}) as unknown as typeof fs;
let cachedBytes = 0;

/**
 * Builds the isomorphic-git arguments for `repo`. Git objects are immutable, so the parsed pack
 * indexes and packs isomorphic-git keeps in its cache stay valid across requests: one cache per
 * repository lives on until the repository's set of packs changes (a push or a repack adds or
 * removes a pack file, which changes the pack directory's modification time), until it is among
 * the least recently used beyond {@link MAX_CACHED_REPOSITORIES}, or while the packs of all
 * cached repositories exceed {@link TOTAL_CACHED_PACK_BYTES}. Refs and loose objects are not
 * cached: isomorphic-git reads them from disk every time.
 */
export function isoContext(repo: Pick<GitRepository, "gitdir">): IsoContext {
  return { fs: wrappedFs, gitdir: repo.gitdir, cache: sharedCache(repo.gitdir) };
}

function sharedCache(gitdir: string): object {
  const packDir = join(gitdir, "objects", "pack");
  let mtimeMs: number;
  try {
    mtimeMs = fs.statSync(packDir).mtimeMs;
  } catch {
    return {};
  }
  const known = caches.get(gitdir);
  if (known) {
    caches.delete(gitdir);
    cachedBytes -= known.packBytes;
    if (known.packDirMtimeMs === mtimeMs) {
      caches.set(gitdir, known);
      cachedBytes += known.packBytes;
      return known.cache;
    }
  }
  const packBytes = packSize(packDir);
  if (packBytes > MAX_CACHED_PACK_BYTES) return {};
  const entry: CacheEntry = { packDirMtimeMs: mtimeMs, packBytes, cache: {} };
  caches.set(gitdir, entry);
  cachedBytes += packBytes;
  for (const [dir, old] of caches) {
    if (caches.size <= MAX_CACHED_REPOSITORIES && cachedBytes <= TOTAL_CACHED_PACK_BYTES) break;
    if (dir === gitdir) continue;
    caches.delete(dir);
    cachedBytes -= old.packBytes;
  }
  return entry.cache;
}

function packSize(packDir: string): number {
  let total = 0;
  for (const name of fs.readdirSync(packDir)) {
    if (name.endsWith(".pack") || name.endsWith(".idx")) total += fs.statSync(join(packDir, name)).size;
  }
  return total;
}

/** Forgets a repository's cached packs (it was deleted or renamed). */
export function forgetRepositoryCache(gitdir: string): void {
  const known = caches.get(gitdir);
  if (!known) return;
  caches.delete(gitdir);
  cachedBytes -= known.packBytes;
}

/** Whether an isomorphic-git error means the thing asked for does not exist. */
export function isIsoNotFound(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return code === "NotFoundError" || code === "ENOENT";
}
