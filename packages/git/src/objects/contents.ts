import type { GitRepository } from "../disk/git-repository.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { streamBlob } from "./cat-file.js";
import { parseGitmodules } from "./gitmodules.js";
import { type IsoContext, isoContext } from "./iso.js";
import { isLargeTree } from "./large-tree.js";
import { lastCommitsOf } from "./last-commits.js";
import { objectInfo, objectInfos, readBlobCached, readCommitCached } from "./object-cache.js";
import { refInPath } from "./ref-in-path.js";
import { lookupRef, type RefSnapshot, refSnapshot } from "./repo-state.js";
import { headBranch, objectType, resolveCommit } from "./resolve.js";
import { entryAtPath, normalizeRepoPath, readTreeEntries, type TreeEntry } from "./tree-entries.js";
import { windowTree } from "./tree-listing.js";

/** The kind of a contents entry, as Forgejo names it; executable files are `file`. */
export type ContentType = "file" | "dir" | "symlink" | "submodule";

/** One entry of the contents API, without content. */
export interface ContentEntry {
  readonly name: string;
  readonly path: string;
  readonly sha: string;
  readonly type: ContentType;
  /** The git mode (`100644`, `100755`, `120000`, `040000`, `160000`). */
  readonly mode: string;
  /** Blob size in bytes; 0 for directories and submodules. */
  readonly size: number;
  /** Link target of a symlink. */
  readonly target?: string;
  /** Remote URL of a submodule, from `.gitmodules`. */
  readonly submoduleUrl?: string;
  /** The last commit that changed this path (only with `lastCommit: true`). */
  readonly lastCommitSha?: string;
}

/** A file entry with its bytes. */
export interface FileContent extends ContentEntry {
  readonly content: Uint8Array;
}

/** What a contents read found: a directory listing or one entry (files carry their bytes). */
export type ContentsResult =
  | {
      readonly kind: "dir";
      readonly commitSha: string;
      readonly entries: readonly ContentEntry[];
      /** Whether the directory has more entries than `maxEntries` (only the first are listed). */
      readonly truncated: boolean;
    }
  | { readonly kind: "entry"; readonly commitSha: string; readonly entry: ContentEntry | FileContent };

/** Options of {@link getContents}. */
export interface GetContentsOptions {
  /** Branch, tag or sha; the default branch when absent. */
  readonly ref?: string;
  /** Also find the last commit touching each entry (one native history walk for a listing). */
  readonly lastCommit?: boolean;
  /** A single file larger than this comes without its bytes (`[api] DEFAULT_MAX_BLOB_SIZE`). */
  readonly maxContentSize?: number;
  /** A directory listing stops after this many entries, in git's order (`[api] MAX_DIRECTORY_ENTRIES`). */
  readonly maxEntries?: number;
}

/** A symlink's target is read only up to this size (a longer one is no usable path). */
const MAX_LINK_TARGET = 4096;
/** A `.gitmodules` larger than this is not read (submodules then have no URL). */
const MAX_GITMODULES = 1024 * 1024;

function typeOf(entry: TreeEntry): ContentType {
  if (entry.type === "tree") return "dir";
  if (entry.type === "commit") return "submodule";
  return entry.mode === "120000" ? "symlink" : "file";
}

/**
 * Describes tree entries: sizes from one `cat-file --batch-check` round trip (never from reading
 * the files), symlink targets (small by nature), submodule URLs from `.gitmodules`, and the last
 * commit of each entry from one history walk. With `withContent`, a file up to `maxContentSize`
 * also carries its bytes.
 */
async function describeAll(
  repo: GitRepository,
  ctx: IsoContext,
  commitSha: string,
  rootTree: string,
  dir: string,
  entries: readonly { readonly path: string; readonly entry: TreeEntry }[],
  options: GetContentsOptions & { readonly withContent?: boolean },
): Promise<(ContentEntry & { content?: Uint8Array })[]> {
  const blobs = entries.filter(({ entry }) => entry.type === "blob");
  const headers = await objectInfos(
    ctx,
    blobs.map(({ entry }) => entry.sha),
  );
  const sizes = new Map(blobs.map(({ entry }, index) => [entry.sha, headers[index]?.size ?? 0]));
  let modules: { readonly path: string; readonly url: string }[] | undefined;
  if (entries.some(({ entry }) => entry.type === "commit")) {
    const file = await entryAtPath(ctx, rootTree, ".gitmodules");
    modules =
      file?.type === "blob" && ((await objectInfo(ctx, file.sha))?.size ?? 0) <= MAX_GITMODULES
        ? parseGitmodules(Buffer.from(await readBlobCached(ctx, file.sha)).toString("utf8"))
        : [];
  }
  const last = options.lastCommit
    ? await lastCommitsOf(
        repo,
        commitSha,
        dir,
        entries.map(({ path }) => path.split("/").pop() ?? ""),
      )
    : undefined;
  const described: (ContentEntry & { content?: Uint8Array })[] = [];
  for (const { path, entry } of entries) {
    const type = typeOf(entry);
    const name = path.split("/").pop() ?? "";
    const size = sizes.get(entry.sha) ?? 0;
    const readable =
      (type === "symlink" && size <= MAX_LINK_TARGET) ||
      (type === "file" && options.withContent && size <= (options.maxContentSize ?? Infinity));
    const bytes = readable ? await readBlobCached(ctx, entry.sha) : undefined;
    const submoduleUrl =
      type === "submodule" ? modules?.find((module) => module.path === path)?.url : undefined;
    const lastCommitSha = last?.get(name);
    described.push({
      name,
      path,
      sha: entry.sha,
      type,
      mode: entry.mode,
      size,
      ...(type === "symlink" && bytes ? { target: Buffer.from(bytes).toString("utf8") } : {}),
      ...(submoduleUrl ? { submoduleUrl } : {}),
      ...(lastCommitSha ? { lastCommitSha } : {}),
      ...(type === "file" && bytes ? { content: bytes } : {}),
    });
  }
  return described;
}

/**
 * Reads `path` at a ref: a directory gives its listing (entries without content, at most
 * `maxEntries` of them), anything else its single entry, files with their bytes (up to
 * `maxContentSize`). Throws not-found for a missing path or ref.
 */
export async function getContents(
  repo: GitRepository,
  path: string,
  options: GetContentsOptions = {},
): Promise<ContentsResult> {
  const ctx = isoContext(repo);
  const normalized = normalizeRepoPath(path);
  const commitSha = await resolveCommit(ctx, options.ref ?? (await headBranch(ctx)));
  const rootTree = (await readCommitCached(ctx, commitSha)).commit.tree;
  const entry = await entryAtPath(ctx, rootTree, normalized);
  if (!entry) throw new GitNotFoundError(`path ${normalized} does not exist`);
  if (entry.type !== "tree") {
    const parent = normalized.includes("/") ? normalized.slice(0, normalized.lastIndexOf("/")) : "";
    const [described] = await describeAll(
      repo,
      ctx,
      commitSha,
      rootTree,
      parent,
      [{ path: normalized, entry }],
      {
        ...options,
        withContent: true,
      },
    );
    if (!described) throw new GitNotFoundError(`path ${normalized} does not exist`);
    return { kind: "entry", commitSha, entry: described };
  }
  const max = options.maxEntries ?? Number.POSITIVE_INFINITY;
  const { listed, truncated } = await firstEntries(ctx, entry.sha, max);
  const children = listed.map((child) => ({
    path: normalized ? `${normalized}/${child.name}` : child.name,
    entry: child,
  }));
  const entries = await describeAll(repo, ctx, commitSha, rootTree, normalized, children, options);
  return { kind: "dir", commitSha, entries, truncated };
}

/**
 * The first `max` entries of a tree in git's order, and whether there are more: a large tree is
 * listed by git and only that many entries are decoded (tree-listing.ts).
 */
async function firstEntries(
  ctx: IsoContext,
  tree: string,
  max: number,
): Promise<{ listed: readonly TreeEntry[]; truncated: boolean }> {
  if (Number.isFinite(max) && (await isLargeTree(ctx, tree))) {
    const window = await windowTree(ctx, tree, { start: 0, count: max, countAll: false });
    return { listed: window.entries, truncated: window.total > max };
  }
  const all = await readTreeEntries(ctx, tree);
  return { listed: all.length > max ? all.slice(0, max) : all, truncated: all.length > max };
}

/** Blobs up to this size are read whole (from the cached packs); larger ones stream from git. */
const READ_WHOLE_MAX = 1024 * 1024;

/** A file found at a path, ready to be read. */
export interface RawFile {
  readonly sha: string;
  readonly mode: string;
  readonly size: number;
  /** The file's bytes, as a stream: memory stays bounded (1 MiB) whatever the file's size. */
  open(): Promise<ReadableStream<Uint8Array>>;
  /**
   * The file's bytes: whole for a file up to 1 MiB (from the object cache: a response can carry
   * them in one write), else as {@link open}'s stream.
   */
  content(): Promise<Uint8Array | ReadableStream<Uint8Array>>;
}

const FULL_SHA = /^[0-9a-f]{40}$/;

/**
 * The commit a read names, from the snapshot of the refs the read took: a branch (the common case:
 * the default branch) is looked up there directly; anything else goes through
 * {@link resolveCommit}, whose order (a full sha before a branch) this keeps.
 */
async function commitNamed(ctx: IsoContext, snapshot: RefSnapshot, name: string): Promise<string> {
  if (!FULL_SHA.test(name)) {
    const oid = lookupRef(snapshot, `refs/heads/${name}`);
    if (oid !== undefined && (await objectType(ctx, oid)) === "commit") return oid;
  }
  return resolveCommit(ctx, name);
}

/** Options of {@link openRawFile}. */
export interface OpenRawFileOptions {
  /** Branch, tag or sha; HEAD's branch when absent. */
  readonly ref?: string;
  /**
   * Without `ref`, a leading branch, tag or full sha of the path names the ref (Forgejo's legacy
   * `raw/{ref}/{path}`, {@link splitRefFromPath}); `ref` is then only the fallback.
   */
  readonly refInPath?: boolean;
}

/**
 * Finds the file at `path` (Forgejo's `/raw/{filepath}`); throws not-found for a missing path or a
 * directory. The refs are read once (one snapshot) for the whole lookup. Its bytes are read when
 * asked for: a small file whole, a large one streamed from `git cat-file blob`. `path` in the
 * answer is the file's path inside the ref.
 */
export async function openRawFile(
  repo: GitRepository,
  path: string,
  options: OpenRawFileOptions = {},
): Promise<RawFile & { readonly path: string }> {
  const ctx = isoContext(repo);
  const snapshot = await refSnapshot(ctx.gitdir);
  const target = options.refInPath ? refInPath(snapshot, path) : { path };
  const normalized = normalizeRepoPath(target.path);
  const ref = target.ref ?? options.ref ?? (await headBranch(ctx));
  const commitSha = await commitNamed(ctx, snapshot, ref);
  const rootTree = (await readCommitCached(ctx, commitSha)).commit.tree;
  const entry = await entryAtPath(ctx, rootTree, normalized);
  if (entry?.type !== "blob") throw new GitNotFoundError(`file ${normalized} does not exist`);
  const header = await objectInfo(ctx, entry.sha);
  if (!header) throw new GitNotFoundError(`file ${normalized} does not exist`);
  return { path: normalized, ...blobFile(repo, entry.sha, entry.mode, header.size) };
}

/**
 * The blob `sha` of the repository, ready to be read as {@link openRawFile} reads a file
 * (Forgejo's `/raw/blob/{sha}`); throws not-found for an object that is missing or no blob.
 */
export async function openRawBlob(repo: GitRepository, sha: string): Promise<RawFile> {
  if (!/^(?:[0-9a-f]{40}|[0-9a-f]{64})$/.test(sha)) throw new GitNotFoundError(`blob ${sha} does not exist`);
  const header = await objectInfo(isoContext(repo), sha);
  if (header?.type !== "blob") throw new GitNotFoundError(`blob ${sha} does not exist`);
  return blobFile(repo, sha, "100644", header.size);
}

/** Reads a blob known to exist: up to 1 MiB whole from the object cache, larger streamed. */
function blobFile(repo: GitRepository, sha: string, mode: string, size: number): RawFile {
  const whole = () => readBlobCached(isoContext(repo), sha);
  return {
    sha,
    mode,
    size,
    async open() {
      if (size > READ_WHOLE_MAX) return streamBlob(repo, sha);
      const blob = await whole();
      return new ReadableStream<Uint8Array>({
        start(controller) {
          if (blob.length > 0) controller.enqueue(blob);
          controller.close();
        },
      });
    },
    async content() {
      return size > READ_WHOLE_MAX ? streamBlob(repo, sha) : whole();
    },
  };
}
