import git from "isomorphic-git";
import {
  batchReadObjects,
  type GitObjectKind,
  type ObjectHeader,
  objectHeaders,
  type RawObject,
} from "./cat-file.js";
import { type IsoContext, isIsoNotFound } from "./iso.js";
import {
  type ParsedCommit,
  type ParsedTag,
  type ParsedTree,
  parseCommit,
  parseTag,
  parseTree,
} from "./parse-objects.js";
import { objectKeyPrefix } from "./repo-state.js";

/**
 * The object layer every read goes through. Git objects never change, so parsed commits, trees
 * and tags, small blobs and every object's type and size are remembered across requests, by
 * repository incarnation and object id ({@link objectKeyPrefix}: an object of one repository is
 * never answered for another), under a memory cap. A miss reads the object through the
 * configured engine: isomorphic-git on its long-lived pack cache, or the repository's
 * long-lived `git cat-file --batch` (docs/git.md has the measurements behind the default).
 */

/** The ways an object can be read on a cache miss. */
export type ObjectEngine = "isomorphic-git" | "cat-file";

/** What the parsed objects and blobs kept in memory may add up to, approximately. */
const MAX_CACHED_BYTES = 64 * 1024 * 1024;
/** A blob larger than this is read but not kept. */
const MAX_CACHED_BLOB = 256 * 1024;
/** How many objects' type and size are remembered. */
const MAX_HEADERS = 100_000;

function engineFromEnvironment(): ObjectEngine {
  const named = process.env.KILN_GIT_OBJECT_ENGINE;
  return named === "isomorphic-git" ? "isomorphic-git" : "cat-file";
}

let engine: ObjectEngine = engineFromEnvironment();

/** The engine reading objects on a cache miss (`KILN_GIT_OBJECT_ENGINE` at start-up). */
export function objectEngine(): ObjectEngine {
  return engine;
}

/** Chooses the engine reading objects on a cache miss (benchmarks and tests compare them). */
export function setObjectEngine(name: ObjectEngine): void {
  engine = name;
}

/** An object that does not exist, with isomorphic-git's error code (callers test `code`). */
class ObjectNotFoundError extends Error {
  readonly code = "NotFoundError";
}

/** An object of another type than asked for, with isomorphic-git's error code. */
class ObjectTypeError extends Error {
  readonly code = "ObjectTypeError";
}

type Cached =
  | { readonly kind: "commit"; readonly value: ParsedCommit }
  | { readonly kind: "tree"; readonly value: ParsedTree }
  | { readonly kind: "tag"; readonly value: ParsedTag }
  | { readonly kind: "blob"; readonly value: Uint8Array };

const objects = new Map<string, { readonly entry: Cached; readonly bytes: number }>();
let cachedBytes = 0;
const headers = new Map<string, ObjectHeader>();
const reading = new Map<string, Promise<RawObject | undefined>>();

function remember(key: string, entry: Cached, bytes: number): void {
  if (bytes > MAX_CACHED_BYTES / 8) return;
  const old = objects.get(key);
  if (old) cachedBytes -= old.bytes;
  objects.set(key, { entry, bytes });
  cachedBytes += bytes;
  for (const [oldest, value] of objects) {
    if (cachedBytes <= MAX_CACHED_BYTES) break;
    objects.delete(oldest);
    cachedBytes -= value.bytes;
  }
}

function recall(key: string): Cached | undefined {
  const found = objects.get(key);
  if (!found) return undefined;
  objects.delete(key);
  objects.set(key, found);
  return found.entry;
}

function rememberHeader(key: string, header: ObjectHeader): void {
  if (headers.has(key)) return;
  headers.set(key, header);
  if (headers.size > MAX_HEADERS) {
    const oldest = headers.keys().next().value;
    if (oldest !== undefined) headers.delete(oldest);
  }
}

/** Reads one object's bytes with the configured engine; undefined when it does not exist. */
async function readRaw(ctx: IsoContext, oid: string): Promise<RawObject | undefined> {
  if (engine === "cat-file") return (await batchReadObjects(ctx, [oid]))[0];
  try {
    const read = await git.readObject({ ...ctx, oid, format: "content" });
    return { type: read.type as GitObjectKind, data: read.object as Uint8Array };
  } catch (error) {
    if (isIsoNotFound(error)) return undefined;
    throw error;
  }
}

/** One read per object at a time: concurrent misses for the same object share it. */
function readShared(ctx: IsoContext, key: string, oid: string): Promise<RawObject | undefined> {
  const known = reading.get(key);
  if (known) return known;
  const read = readRaw(ctx, oid).finally(() => reading.delete(key));
  reading.set(key, read);
  return read;
}

interface ParsedByKind {
  commit: ParsedCommit;
  tree: ParsedTree;
  tag: ParsedTag;
}

async function readParsed<K extends keyof ParsedByKind>(
  ctx: IsoContext,
  oid: string,
  kind: K,
): Promise<ParsedByKind[K]> {
  const key = objectKeyPrefix(ctx.gitdir) + oid;
  const known = recall(key);
  if (known?.kind === kind) return known.value as ParsedByKind[K];
  if (known) throw new ObjectTypeError(`object ${oid} is a ${known.kind}, not a ${kind}`);
  const raw = await readShared(ctx, key, oid);
  if (!raw) throw new ObjectNotFoundError(`object ${oid} does not exist`);
  rememberHeader(key, { type: raw.type, size: raw.data.length });
  if (raw.type !== kind) throw new ObjectTypeError(`object ${oid} is a ${raw.type}, not a ${kind}`);
  const entry: Cached =
    kind === "commit"
      ? { kind: "commit", value: parseCommit(oid, raw.data) }
      : kind === "tree"
        ? { kind: "tree", value: parseTree(oid, raw.data) }
        : { kind: "tag", value: parseTag(oid, raw.data) };
  const bytes = raw.data.length * (kind === "tree" ? 4 : 2) + 256;
  remember(key, entry, bytes);
  return entry.value as ParsedByKind[K];
}

/** A commit by id, parsed once; the caller must not modify the result. */
export function readCommitCached(ctx: IsoContext, oid: string): Promise<ParsedCommit> {
  return readParsed(ctx, oid, "commit");
}

/** A tree by id, parsed once; as {@link readCommitCached}. */
export function readTreeCached(ctx: IsoContext, oid: string): Promise<ParsedTree> {
  return readParsed(ctx, oid, "tree");
}

/** An annotated tag by id, parsed once; as {@link readCommitCached}. */
export function readTagCached(ctx: IsoContext, oid: string): Promise<ParsedTag> {
  return readParsed(ctx, oid, "tag");
}

/**
 * A blob's bytes, whole (check its size with {@link objectInfo} first: large blobs are for
 * `streamBlob`); small blobs are remembered. Throws not-found or a type error.
 */
export async function readBlobCached(ctx: IsoContext, oid: string): Promise<Uint8Array> {
  const key = objectKeyPrefix(ctx.gitdir) + oid;
  const known = recall(key);
  if (known?.kind === "blob") return known.value;
  if (known) throw new ObjectTypeError(`object ${oid} is a ${known.kind}, not a blob`);
  const raw = await readShared(ctx, key, oid);
  if (!raw) throw new ObjectNotFoundError(`object ${oid} does not exist`);
  rememberHeader(key, { type: raw.type, size: raw.data.length });
  if (raw.type !== "blob") throw new ObjectTypeError(`object ${oid} is a ${raw.type}, not a blob`);
  if (raw.data.length <= MAX_CACHED_BLOB)
    remember(key, { kind: "blob", value: raw.data }, raw.data.length + 64);
  return raw.data;
}

/**
 * Small blobs' bytes, in the order asked, each read as {@link readBlobCached} reads one but the
 * misses all in one round trip of the cat-file engine (isomorphic-git reads them one by one).
 * Undefined for an id that is not a blob. Callers keep the total small: every answer is in memory.
 */
export async function readBlobsCached(
  ctx: IsoContext,
  oids: readonly string[],
): Promise<(Uint8Array | undefined)[]> {
  const prefix = objectKeyPrefix(ctx.gitdir);
  const answers = oids.map((oid) => {
    const known = recall(prefix + oid);
    return known?.kind === "blob" ? known.value : undefined;
  });
  const missing = [...new Set(oids.filter((_oid, index) => answers[index] === undefined))];
  if (missing.length === 0) return answers;
  const read =
    engine === "cat-file"
      ? await batchReadObjects(ctx, missing)
      : await Promise.all(missing.map((oid) => readShared(ctx, prefix + oid, oid)));
  const byOid = new Map<string, Uint8Array>();
  missing.forEach((oid, index) => {
    const raw = read[index];
    if (!raw) return;
    rememberHeader(prefix + oid, { type: raw.type, size: raw.data.length });
    if (raw.type !== "blob") return;
    byOid.set(oid, raw.data);
    if (raw.data.length <= MAX_CACHED_BLOB)
      remember(prefix + oid, { kind: "blob", value: raw.data }, raw.data.length + 64);
  });
  return oids.map((oid, index) => answers[index] ?? byOid.get(oid));
}

/** Each object's type and size (undefined for a missing one) without reading its content. */
export async function objectInfos(
  ctx: IsoContext,
  oids: readonly string[],
): Promise<(ObjectHeader | undefined)[]> {
  const prefix = objectKeyPrefix(ctx.gitdir);
  const answers = oids.map((oid) => headers.get(prefix + oid));
  const missing = [...new Set(oids.filter((_oid, index) => answers[index] === undefined))];
  if (missing.length === 0) return answers;
  const found = await objectHeaders(ctx, missing);
  const byOid = new Map<string, ObjectHeader>();
  missing.forEach((oid, index) => {
    const header = found[index];
    if (!header) return;
    byOid.set(oid, header);
    rememberHeader(prefix + oid, header);
  });
  return oids.map((oid, index) => answers[index] ?? byOid.get(oid));
}

/** One object's type and size, or undefined when it does not exist. */
export async function objectInfo(ctx: IsoContext, oid: string): Promise<ObjectHeader | undefined> {
  const known = headers.get(objectKeyPrefix(ctx.gitdir) + oid);
  if (known) return known;
  return (await objectInfos(ctx, [oid]))[0];
}
