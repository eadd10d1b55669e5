import git from "isomorphic-git";
import { GitNotFoundError } from "../errors/git-error.js";
import type { GitRepository } from "../storage/git-repository.js";
import { parseGitmodules } from "./gitmodules.js";
import { type IsoContext, isoContext } from "./iso.js";
import { headBranch, resolveCommit } from "./resolve.js";
import { entryAtPath, normalizeRepoPath, readTreeEntries, type TreeEntry } from "./tree-entries.js";

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
  | { readonly kind: "dir"; readonly commitSha: string; readonly entries: readonly ContentEntry[] }
  | { readonly kind: "entry"; readonly commitSha: string; readonly entry: ContentEntry | FileContent };

/** Options of {@link getContents}. */
export interface GetContentsOptions {
  /** Branch, tag or sha; the default branch when absent. */
  readonly ref?: string;
  /** Also find the last commit touching each entry (one history walk per entry). */
  readonly lastCommit?: boolean;
}

function typeOf(entry: TreeEntry): ContentType {
  if (entry.type === "tree") return "dir";
  if (entry.type === "commit") return "submodule";
  return entry.mode === "120000" ? "symlink" : "file";
}

async function describe(
  ctx: IsoContext,
  commitSha: string,
  rootTree: string,
  path: string,
  entry: TreeEntry,
  options: GetContentsOptions,
): Promise<ContentEntry & { content?: Uint8Array }> {
  const type = typeOf(entry);
  const name = path.split("/").pop() ?? "";
  let size = 0;
  let bytes: Uint8Array | undefined;
  if (entry.type === "blob") {
    bytes = (await git.readBlob({ ...ctx, oid: entry.sha })).blob;
    size = bytes.length;
  }
  let submoduleUrl: string | undefined;
  if (type === "submodule") {
    const modules = await entryAtPath(ctx, rootTree, ".gitmodules");
    if (modules?.type === "blob") {
      const text = Buffer.from((await git.readBlob({ ...ctx, oid: modules.sha })).blob).toString("utf8");
      submoduleUrl = parseGitmodules(text).find((module) => module.path === path)?.url;
    }
  }
  let lastCommitSha: string | undefined;
  if (options.lastCommit) {
    const [last] = await git.log({ ...ctx, ref: commitSha, filepath: path, depth: 1, force: true });
    lastCommitSha = last?.oid;
  }
  return {
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
  };
}

/**
 * Reads `path` at a ref: a directory gives its listing (entries without content), anything
 * else its single entry, files with their bytes. Throws not-found for a missing path or ref.
 */
export async function getContents(
  repo: GitRepository,
  path: string,
  options: GetContentsOptions = {},
): Promise<ContentsResult> {
  const ctx = isoContext(repo);
  const normalized = normalizeRepoPath(path);
  const commitSha = await resolveCommit(ctx, options.ref ?? (await headBranch(ctx)));
  const rootTree = (await git.readCommit({ ...ctx, oid: commitSha })).commit.tree;
  const entry = await entryAtPath(ctx, rootTree, normalized);
  if (!entry) throw new GitNotFoundError(`path ${normalized} does not exist`);
  if (entry.type !== "tree") {
    return {
      kind: "entry",
      commitSha,
      entry: await describe(ctx, commitSha, rootTree, normalized, entry, options),
    };
  }
  const entries: ContentEntry[] = [];
  for (const child of await readTreeEntries(ctx, entry.sha)) {
    const childPath = normalized ? `${normalized}/${child.name}` : child.name;
    const { content: _content, ...described } = await describe(
      ctx,
      commitSha,
      rootTree,
      childPath,
      child,
      options,
    );
    entries.push(described);
  }
  return { kind: "dir", commitSha, entries };
}

/** The bytes of the file at `path` (Forgejo's `/raw/{filepath}`); throws not-found for a missing path or a directory. */
export async function readRawFile(
  repo: GitRepository,
  path: string,
  options: { readonly ref?: string } = {},
): Promise<{ readonly sha: string; readonly mode: string; readonly content: Uint8Array }> {
  const ctx = isoContext(repo);
  const normalized = normalizeRepoPath(path);
  const commitSha = await resolveCommit(ctx, options.ref ?? (await headBranch(ctx)));
  const rootTree = (await git.readCommit({ ...ctx, oid: commitSha })).commit.tree;
  const entry = await entryAtPath(ctx, rootTree, normalized);
  if (entry?.type !== "blob") throw new GitNotFoundError(`file ${normalized} does not exist`);
  const { blob } = await git.readBlob({ ...ctx, oid: entry.sha });
  return { sha: entry.sha, mode: entry.mode, content: blob };
}
