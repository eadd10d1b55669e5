import { type Dirent, statSync } from "node:fs";
import { readdir, readFile, stat } from "node:fs/promises";
import { join } from "node:path";
import { GitNotFoundError } from "../errors/git-error.js";
import { isReadableRef } from "../util/ref-names.js";
import { runGit } from "../util/run-git.js";
import { openFiles } from "../util/work-limits.js";

/**
 * What a read keeps of a repository between requests: its refs, read once and reused while they
 * cannot have changed, and the epoch that names this incarnation of the repository in the object
 * caches.
 *
 * A snapshot of the refs is reused only while every directory it was read from (the repository
 * itself, for HEAD and `packed-refs`, and each directory under `refs/`) keeps its modification
 * time: git changes refs by renaming a lock file into place or unlinking, which changes the
 * directory's time, so a change made by any git process is seen at the next read. Because those
 * times are coarse, a snapshot read within {@link RACY_MS} of a directory's change is not kept
 * (git's "racy" rule). Kiln's own writes (isomorphic-git writes ref files in place) also call
 * {@link refsChanged}. A repository with more than {@link MAX_WATCHED_DIRS} ref directories is
 * not checked directory by directory: its snapshot is reused for {@link MAX_SNAPSHOT_AGE_MS}.
 *
 * Reading costs a bounded number of descriptors whatever the number of refs: directories are
 * walked one at a time, a few loose refs are read as files (each holding an open-file slot), and
 * a repository with more than {@link MAX_LOOSE_READS} loose refs is read by one
 * `git for-each-ref` instead, which also makes its snapshot age-checked.
 */

/** A snapshot read this soon after a change to one of its directories is not reused. */
const RACY_MS = 100;
/** Beyond this many ref directories a snapshot is trusted for {@link MAX_SNAPSHOT_AGE_MS} instead. */
const MAX_WATCHED_DIRS = 32;
/** How long a snapshot of a repository with many ref directories is reused without a check. */
export const MAX_SNAPSHOT_AGE_MS = 1_000;
/** Repositories whose state is kept; the least recently used beyond this is dropped. */
const MAX_REPOSITORIES = 512;
/** Beyond this many loose ref files, refs are read by `git for-each-ref` rather than file by file. */
const MAX_LOOSE_READS = 64;
/** How many symbolic refs (`ref: refs/heads/main`) a lookup follows, as git does. */
const MAX_SYMREF_DEPTH = 5;

/** The refs of a repository at one moment. */
export interface RefSnapshot {
  /** HEAD's content: `ref: refs/heads/main`, or an object id when detached. */
  readonly head: string;
  /** Every ref under `refs/` by full name, loose over packed: an object id, or `ref: <name>`. */
  readonly refs: ReadonlyMap<string, string>;
  /** The names of {@link refs}, sorted. */
  readonly names: readonly string[];
  /** The directories read and their modification times before reading them. */
  readonly dirs: readonly { readonly path: string; readonly mtimeMs: number }[];
  /** `performance.now()` when the read started. */
  readonly readAt: number;
  /** Whether a directory changed so shortly before the read that a later change may not show. */
  readonly racy: boolean;
  /** Whether the snapshot is trusted for {@link MAX_SNAPSHOT_AGE_MS} rather than checked by its directories. */
  readonly byAge: boolean;
}

interface RepoState {
  /** Names this incarnation of the repository in cache keys; never reused, even after a drop. */
  readonly epoch: number;
  /** Bumped by every change; a snapshot read across a change is not kept. */
  generation: number;
  snapshot?: RefSnapshot;
  loading?: Promise<RefSnapshot>;
}

let epochs = 0;
const states = new Map<string, RepoState>();

function stateOf(gitdir: string): RepoState {
  let state = states.get(gitdir);
  if (state) {
    states.delete(gitdir);
    states.set(gitdir, state);
    return state;
  }
  state = { epoch: ++epochs, generation: 0 };
  states.set(gitdir, state);
  if (states.size > MAX_REPOSITORIES) {
    const oldest = states.keys().next().value;
    if (oldest !== undefined) states.delete(oldest);
  }
  return state;
}

/**
 * The cache-key prefix of the repository's objects: an object cached for one repository is never
 * answered for another, nor for a new repository made at the same path after a delete or move.
 */
export function objectKeyPrefix(gitdir: string): string {
  return `${stateOf(gitdir).epoch}\u0000`;
}

/** Drops the repository's ref snapshot: call after any ref or HEAD change. */
export function refsChanged(gitdir: string): void {
  const state = states.get(gitdir);
  if (!state) return;
  state.generation++;
  state.snapshot = undefined;
  state.loading = undefined;
}

/** Forgets everything about the repository (it was created, deleted, moved or replaced). */
export function forgetRepository(gitdir: string): void {
  states.delete(gitdir);
}

/** Whether nothing the snapshot was read from can have changed since. */
function isCurrent(snapshot: RefSnapshot): boolean {
  if (snapshot.byAge) return performance.now() - snapshot.readAt < MAX_SNAPSHOT_AGE_MS;
  for (const dir of snapshot.dirs) {
    if (statSync(dir.path, { throwIfNoEntry: false })?.mtimeMs !== dir.mtimeMs) return false;
  }
  return true;
}

/** The repository's refs, from the snapshot when it is current; read from disk otherwise. */
export function refSnapshot(gitdir: string): Promise<RefSnapshot> {
  const state = stateOf(gitdir);
  const { snapshot } = state;
  if (snapshot && isCurrent(snapshot)) return Promise.resolve(snapshot);
  if (state.loading) return state.loading;
  const generation = state.generation;
  const loading = readSnapshot(gitdir).then(
    (read) => {
      if (state.generation === generation && !read.racy) state.snapshot = read;
      if (state.loading === loading) state.loading = undefined;
      return read;
    },
    (error: unknown) => {
      if (state.loading === loading) state.loading = undefined;
      throw error;
    },
  );
  state.loading = loading;
  return loading;
}

/** Reads a small file (HEAD, `packed-refs`, a loose ref) holding an open-file slot; undefined when missing. */
function readSmall(path: string): Promise<string | undefined> {
  return openFiles.run("", () => readFile(path, "utf8")).catch(ignoreMissing);
}

/** Reads HEAD, `packed-refs` and every loose ref under `refs/`. */
async function readSnapshot(gitdir: string): Promise<RefSnapshot> {
  const readAt = performance.now();
  const startedAt = Date.now();
  const dirs: { path: string; mtimeMs: number }[] = [];
  let head: string;
  try {
    dirs.push({ path: gitdir, mtimeMs: (await stat(gitdir)).mtimeMs });
    head = (await openFiles.run("", () => readFile(join(gitdir, "HEAD"), "utf8"))).trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") {
      throw new GitNotFoundError(`no repository at ${gitdir}`, { cause: error });
    }
    throw error;
  }
  const loose = await walkLooseRefs(gitdir, dirs);
  const refs = loose ? await readFewRefs(gitdir, loose) : await readAllRefs(gitdir);
  const names = [...refs.keys()].sort();
  const racy = dirs.some((dir) => startedAt - dir.mtimeMs < RACY_MS);
  const byAge = loose === undefined || dirs.length > MAX_WATCHED_DIRS;
  return { head, refs, names, dirs, readAt, racy, byAge };
}

function ignoreMissing(error: NodeJS.ErrnoException): undefined {
  if (error.code === "ENOENT" || error.code === "ENOTDIR") return undefined;
  throw error;
}

/**
 * The loose ref files under `refs/`, walking one directory at a time and noting each directory's
 * time before reading it; undefined (the walk stopped) once there are more than
 * {@link MAX_LOOSE_READS} of them or more than {@link MAX_WATCHED_DIRS} directories.
 */
async function walkLooseRefs(
  gitdir: string,
  dirs: { path: string; mtimeMs: number }[],
): Promise<string[] | undefined> {
  const files: string[] = [];
  const pending = ["refs"];
  while (pending.length > 0) {
    const dir = pending.pop() as string;
    const path = join(gitdir, dir);
    const mtimeMs = (await stat(path).catch(ignoreMissing))?.mtimeMs;
    if (mtimeMs === undefined) continue;
    dirs.push({ path, mtimeMs });
    const entries: Dirent[] =
      (await openFiles.run("", () => readdir(path, { withFileTypes: true })).catch(ignoreMissing)) ?? [];
    for (const entry of entries) {
      const name = `${dir}/${entry.name}`;
      if (entry.isDirectory()) pending.push(name);
      else if (entry.isFile() && isReadableRef(name)) files.push(name);
    }
    if (files.length > MAX_LOOSE_READS || dirs.length > MAX_WATCHED_DIRS + 1) return undefined;
  }
  return files;
}

/** `packed-refs`, then the few loose refs over it, each read as a file. */
async function readFewRefs(gitdir: string, loose: readonly string[]): Promise<Map<string, string>> {
  const refs = new Map<string, string>();
  const packed = await readSmall(join(gitdir, "packed-refs"));
  for (const line of packed?.split("\n") ?? []) {
    const space = line.indexOf(" ");
    if (line.startsWith("#") || line.startsWith("^") || space < 0) continue;
    const name = line.slice(space + 1).trim();
    if (isReadableRef(name)) refs.set(name, line.slice(0, space));
  }
  const values = await Promise.all(loose.map((name) => readSmall(join(gitdir, name))));
  loose.forEach((name, index) => {
    const value = values[index];
    if (value !== undefined) refs.set(name, value.trim());
  });
  return refs;
}

/** Every ref, packed or loose, from one `git for-each-ref` (symbolic refs as `ref: <target>`). */
async function readAllRefs(gitdir: string): Promise<Map<string, string>> {
  const result = await runGit([
    "--git-dir",
    gitdir,
    "for-each-ref",
    "--format=%(refname)%00%(objectname)%00%(symref)",
  ]);
  if (result.code !== 0) throw new Error(`git for-each-ref failed: ${result.stderr.trim()}`);
  const refs = new Map<string, string>();
  for (const line of result.stdout.toString("utf8").split("\n")) {
    const [name, oid, symref] = line.split("\u0000");
    if (!name || !oid || !isReadableRef(name)) continue;
    refs.set(name, symref ? `ref: ${symref}` : oid);
  }
  return refs;
}

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * The object id `ref` (a full name, or `HEAD`) points at in the snapshot, following symbolic
 * refs; undefined when it does not exist or git's rules refuse the name.
 */
export function lookupRef(snapshot: RefSnapshot, ref: string): string | undefined {
  let name = ref;
  for (let depth = 0; depth <= MAX_SYMREF_DEPTH; depth++) {
    if (!isReadableRef(name)) return undefined;
    const value = name === "HEAD" ? snapshot.head : snapshot.refs.get(name);
    if (value === undefined) return undefined;
    if (!value.startsWith("ref: ")) return FULL_SHA.test(value) ? value : undefined;
    name = value.slice("ref: ".length).trim();
  }
  return undefined;
}
