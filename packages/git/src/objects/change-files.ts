import git from "isomorphic-git";
import type { GitRepository } from "../disk/git-repository.js";
import {
  GitAlreadyExistsError,
  GitInvalidArgumentError,
  GitNotFoundError,
  GitShaMismatchError,
} from "../errors/git-error.js";
import { type RefUpdate, ZERO_SHA } from "../hooks/push-policy.js";
import { isValidBranchName } from "../util/ref-names.js";
import { type CommitInfo, readCommitInfo } from "./commit-info.js";
import { isoContext } from "./iso.js";
import { objectInfo } from "./object-cache.js";
import { headBranch, isEmptyRepository, readRef } from "./resolve.js";
import { type SignatureInput, toIsoSignature } from "./signature.js";
import { TreeEditor } from "./tree-editor.js";
import { normalizeRepoPath } from "./tree-entries.js";
import { compareAndSetRef } from "./update-ref.js";

/** One file operation of a commit (Forgejo's `ChangeFileOperation`). */
export type FileChange =
  | {
      readonly operation: "create";
      readonly path: string;
      readonly content: Uint8Array;
      readonly executable?: boolean;
    }
  | {
      readonly operation: "update";
      readonly path: string;
      readonly content: Uint8Array;
      /** The blob sha the caller last saw (at `fromPath` when renaming). */
      readonly sha: string;
      /** Renames from this path while updating. */
      readonly fromPath?: string;
    }
  | {
      readonly operation: "rename";
      readonly path: string;
      readonly fromPath: string;
      readonly sha: string;
      /** New content; the old content is kept when absent. */
      readonly content?: Uint8Array;
    }
  | { readonly operation: "delete"; readonly path: string; readonly sha: string };

/** Options of {@link changeFiles} (Forgejo's `ChangeRepoFilesOptions`). */
export interface ChangeFilesOptions {
  readonly files: readonly FileChange[];
  /** The branch to commit on (it must exist unless the repository is empty); the default branch when absent. */
  readonly branch?: string;
  /** Create this branch from `branch` and commit there instead; it must not exist. */
  readonly newBranch?: string;
  /** Commit message; a summary of the operations when absent. */
  readonly message?: string;
  readonly author: SignatureInput;
  /** Defaults to the author. */
  readonly committer?: SignatureInput;
  /** Append a `Signed-off-by:` trailer for the committer. */
  readonly signoff?: boolean;
  /**
   * Told the ref move (ZERO_SHA as `oldSha` for a new branch) after the commit is written and
   * before the branch moves, so the caller can journal it; a throw leaves the branch as it was.
   */
  readonly beforeMove?: (update: RefUpdate) => Promise<void>;
}

/** A file as it stands after the commit; null for deleted files. */
export interface ChangedEntry {
  readonly path: string;
  readonly sha: string;
  readonly mode: string;
  readonly size: number;
}

/** What {@link changeFiles} committed. */
export interface ChangeFilesResult {
  readonly branch: string;
  readonly commit: CommitInfo;
  /** One element per operation, in order. */
  readonly files: readonly (ChangedEntry | null)[];
}

const VERB = { create: "Add", update: "Update", rename: "Rename", delete: "Delete" } as const;

function defaultMessage(files: readonly FileChange[]): string {
  return files.map((file) => `${VERB[file.operation]} '${file.path}'`).join("\n");
}

async function expectBlob(editor: TreeEditor, path: string, sha: string) {
  const found = await editor.get(path);
  if (!found || found === "dir") throw new GitNotFoundError(`file ${path} does not exist`);
  if (found.sha !== sha) throw new GitShaMismatchError(path, sha, found.sha);
  return found;
}

async function apply(
  repo: GitRepository,
  editor: TreeEditor,
  change: FileChange,
): Promise<ChangedEntry | null> {
  const path = normalizeRepoPath(change.path);
  if (path === "") throw new GitInvalidArgumentError("file path must not be empty");
  const writeBlob = (content: Uint8Array) =>
    git.writeBlob({ fs: isoContext(repo).fs, gitdir: repo.gitdir, blob: content });
  if (change.operation === "create") {
    if (await editor.get(path))
      throw new GitAlreadyExistsError(`repository file already exists [path: ${path}]`);
    const mode = change.executable ? "100755" : "100644";
    const sha = await writeBlob(change.content);
    await editor.set(path, mode, sha);
    return { path, sha, mode, size: change.content.length };
  }
  if (change.operation === "delete") {
    if (!change.sha) throw new GitInvalidArgumentError(`sha is required to delete ${path}`);
    await expectBlob(editor, path, change.sha);
    await editor.remove(path);
    return null;
  }
  if (!change.sha) throw new GitInvalidArgumentError(`sha is required to ${change.operation} ${path}`);
  const from = change.fromPath ? normalizeRepoPath(change.fromPath) : path;
  const current = await expectBlob(editor, from, change.sha);
  if (from !== path) {
    if (await editor.get(path))
      throw new GitAlreadyExistsError(`repository file already exists [path: ${path}]`);
    await editor.remove(from);
  }
  const content = change.content;
  const sha = content ? await writeBlob(content) : current.sha;
  const size = content ? content.length : ((await objectInfo(isoContext(repo), sha))?.size ?? 0);
  await editor.set(path, current.mode, sha);
  return { path, sha, mode: current.mode, size };
}

/**
 * Applies several file operations in one commit (Forgejo's ChangeRepoFiles) under the
 * repository's write lock. Throws not-found for a missing branch or file, already-exists for
 * an existing file or new branch, sha-mismatch for a stale sha, invalid-argument for bad input.
 */
export async function changeFiles(
  repo: GitRepository,
  options: ChangeFilesOptions,
): Promise<ChangeFilesResult> {
  if (options.files.length === 0) throw new GitInvalidArgumentError("no file operations given");
  return repo.withWriteLock(async () => {
    const ctx = isoContext(repo);
    const base = options.branch || (await headBranch(ctx));
    const empty = await isEmptyRepository(ctx);
    const baseSha = empty ? undefined : await readRef(ctx, `refs/heads/${base}`);
    if (!empty && !baseSha) throw new GitNotFoundError(`branch ${base} does not exist`);
    const target = options.newBranch || base;
    if (!isValidBranchName(target)) throw new GitInvalidArgumentError(`invalid branch name: ${target}`);
    const expected = options.newBranch ? undefined : baseSha;
    if (options.newBranch && (await readRef(ctx, `refs/heads/${target}`))) {
      throw new GitAlreadyExistsError(`branch ${target} already exists`);
    }

    const parent = baseSha ? await readCommitInfo(ctx, baseSha) : undefined;
    const editor = new TreeEditor(ctx, parent?.tree);
    const files: (ChangedEntry | null)[] = [];
    for (const change of options.files) files.push(await apply(repo, editor, change));
    const tree = await editor.write();

    const author = toIsoSignature(options.author);
    const committer = options.committer ? toIsoSignature(options.committer) : author;
    let message = `${(options.message || defaultMessage(options.files)).trimEnd()}\n`;
    if (options.signoff) message += `\nSigned-off-by: ${committer.name} <${committer.email}>\n`;
    const sha = await git.writeCommit({
      fs: ctx.fs,
      gitdir: ctx.gitdir,
      commit: { message, tree, parent: baseSha ? [baseSha] : [], author, committer },
    });
    await options.beforeMove?.({ ref: `refs/heads/${target}`, oldSha: expected ?? ZERO_SHA, newSha: sha });
    await compareAndSetRef(ctx, `refs/heads/${target}`, expected, sha);
    return { branch: target, commit: await readCommitInfo(ctx, sha), files };
  });
}
