import { NotFoundError, type Repository } from "@kiln/domain";
import {
  type ContentEntry,
  type FileContent,
  type GitSignature,
  getCommitInfos,
  getContents,
  LFS_POINTER_MAX_SIZE,
  openRawBlob,
  openRawFile,
  parseLfsPointer,
} from "@kiln/git";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import { type RefKind, refKind } from "./ref-kind.js";
import type { RefPath } from "./source-service.js";

/** The ref a contents read was made at: as given (for `?ref=` links), its kind and its URL form. */
export interface ContentsRef {
  /** The ref as the caller gave it, or the default branch. */
  readonly name: string;
  readonly kind: RefKind;
  /** What links use: the branch or tag name, or the full commit sha. */
  readonly path: string;
}

/** One entry with the last commit that changed it. */
export interface ContentItem {
  readonly entry: ContentEntry | FileContent;
  readonly lastCommit?: {
    readonly sha: string;
    readonly committer: GitSignature;
    /** The commit's message (the web's tree shows its first line). */
    readonly message: string;
  };
}

/** A directory listing or a single entry (Forgejo's GetContentsOrList). */
export interface ContentsView {
  readonly kind: "dir" | "entry";
  readonly ref: ContentsRef;
  readonly items: readonly ContentItem[];
  /** Whether a directory has more entries than were listed (`[api] MAX_DIRECTORY_ENTRIES`). */
  readonly truncated?: boolean;
}

/** A raw file, what kind of tree entry it is, and its bytes as a stream (opened on demand). */
export interface RawFile {
  readonly sha: string;
  readonly name: string;
  readonly type: "file" | "symlink";
  readonly size: number;
  open(): Promise<ReadableStream<Uint8Array>>;
  /** The bytes: whole for a small file (one write answers it), else a stream as {@link open}'s. */
  content(): Promise<Uint8Array | ReadableStream<Uint8Array>>;
}

/** Reads files and directories at a ref (Forgejo's contents and raw endpoints). */
export class ContentService {
  constructor(private readonly repos: RepoService) {}

  /**
   * The entry at `path` (the root when empty) at `ref` (default branch when absent): a listing
   * for a directory, else the single entry with a file's bytes. An empty repository lists nothing;
   * a missing path or ref is 404. A file larger than `maxContentSize` comes without its bytes; a
   * directory lists its first `maxEntries` entries in git's order.
   */
  async contents(
    repo: Repository,
    path: string,
    ref?: string,
    maxContentSize?: number,
    maxEntries?: number,
  ): Promise<ContentsView> {
    const name = ref || repo.defaultBranch;
    if (repo.isEmpty) return { kind: "dir", ref: { name, kind: "branch", path: name }, items: [] };
    const git = await this.repos.git(repo);
    const kind = await refKind(git, name);
    return this.read(git, path, name, kind, name, maxContentSize, maxEntries);
  }

  /**
   * The entry at `path` in commit `sha`, linked as on `branch`: what an API write answers about
   * the commit it made, whatever the branch became since (another writer may have moved it on).
   */
  async contentsOfCommit(repo: Repository, path: string, branch: string, sha: string): Promise<ContentsView> {
    const git = await this.repos.git(repo);
    return this.read(git, path, sha, "branch", branch);
  }

  /**
   * The entry at `path` at a ref resolved from a web path ({@link RefPath}): a branch or tag is
   * read by its full name, so a tag never stands in for a branch of the same name.
   */
  async contentsAt(
    repo: Repository,
    at: RefPath,
    maxContentSize?: number,
    maxEntries?: number,
  ): Promise<ContentsView> {
    if (repo.isEmpty) throw new NotFoundError();
    const git = await this.repos.git(repo);
    const full =
      at.kind === "branch" ? `refs/heads/${at.name}` : at.kind === "tag" ? `refs/tags/${at.name}` : at.name;
    return this.read(git, at.path, full, at.kind, at.name, maxContentSize, maxEntries);
  }

  private async read(
    git: Awaited<ReturnType<RepoService["git"]>>,
    path: string,
    at: string,
    kind: RefKind,
    name: string,
    maxContentSize?: number,
    maxEntries?: number,
  ): Promise<ContentsView> {
    const result = await withGitErrors(() =>
      getContents(git, path, {
        ref: at,
        lastCommit: true,
        ...(maxContentSize !== undefined ? { maxContentSize } : {}),
        ...(maxEntries !== undefined ? { maxEntries } : {}),
      }),
    );
    const refPath = kind === "commit" ? result.commitSha : name;
    const entries = result.kind === "dir" ? result.entries : [result.entry];
    const shas = [...new Set(entries.flatMap((entry) => (entry.lastCommitSha ? [entry.lastCommitSha] : [])))];
    const commits = await withGitErrors(() => getCommitInfos(git, shas));
    const bySha = new Map(commits.map((commit) => [commit.sha, commit] as const));
    const items: ContentItem[] = [];
    for (const entry of entries) {
      const commit = entry.lastCommitSha ? bySha.get(entry.lastCommitSha) : undefined;
      items.push({
        entry,
        ...(commit
          ? { lastCommit: { sha: commit.sha, committer: commit.committer, message: commit.message } }
          : {}),
      });
    }
    const truncated = result.kind === "dir" && result.truncated;
    return {
      kind: result.kind,
      ref: { name, kind, path: refPath },
      items,
      ...(truncated ? { truncated } : {}),
    };
  }

  /**
   * The bytes of the file at `path` at `ref`; without `ref`, a leading branch, tag or sha in the
   * path names it (Forgejo's legacy form), else the default branch. 404 for anything else.
   */
  async raw(repo: Repository, path: string, ref?: string): Promise<RawFile> {
    if (repo.isEmpty) throw new NotFoundError();
    const git = await this.repos.git(repo);
    const file = await withGitErrors(
      () => openRawFile(git, path, ref ? { ref } : { ref: repo.defaultBranch, refInPath: true }),
      { invalid_argument: (m) => new NotFoundError(m), empty_repository: () => new NotFoundError() },
    );
    return {
      sha: file.sha,
      name: file.path.split("/").pop() ?? file.path,
      type: file.mode === "120000" ? "symlink" : "file",
      size: file.size,
      open: () => file.open(),
      content: () => file.content(),
    };
  }

  /**
   * Forgejo's `/media/{filepath}`: the file at `path`, or, when it is an LFS pointer to an object
   * this repository references (with that size) and the store holds, that object's bytes.
   */
  async media(repo: Repository, path: string, ref?: string): Promise<RawFile> {
    return this.lfsBehind(repo, await this.raw(repo, path, ref));
  }

  /** Forgejo's `/raw/blob/{sha}`: the blob `sha` of the repository, named by its id; 404 for anything else. */
  async rawBlob(repo: Repository, sha: string): Promise<RawFile> {
    if (repo.isEmpty) throw new NotFoundError();
    const git = await this.repos.git(repo);
    const blob = await withGitErrors(() => openRawBlob(git, sha), {
      invalid_argument: (m) => new NotFoundError(m),
    });
    return {
      sha: blob.sha,
      name: blob.sha,
      type: "file",
      size: blob.size,
      open: () => blob.open(),
      content: () => blob.content(),
    };
  }

  /** Forgejo's `/media/blob/{sha}`: {@link rawBlob}, or the LFS object it points to as {@link media}. */
  async mediaBlob(repo: Repository, sha: string): Promise<RawFile> {
    return this.lfsBehind(repo, await this.rawBlob(repo, sha));
  }

  /** The LFS object `file` points to, when this repository references it and the store holds it; else `file`. */
  private async lfsBehind(repo: Repository, file: RawFile): Promise<RawFile> {
    if (file.type !== "file" || file.size > LFS_POINTER_MAX_SIZE) return file;
    const pointer = parseLfsPointer(new Uint8Array(await new Response(await file.content()).arrayBuffer()));
    if (!pointer) return file;
    const referenced = await this.repos.lfsObjectsOf(repo, [pointer.oid]);
    if (referenced.get(pointer.oid) !== pointer.size) return file;
    const stored = await this.repos.lfs.sizeOf(pointer.oid);
    if (stored !== pointer.size) return file;
    return {
      sha: file.sha,
      name: file.name,
      type: "file",
      size: pointer.size,
      open: async () => (await this.repos.lfs.get(pointer.oid)).stream,
      content: async () => (await this.repos.lfs.get(pointer.oid)).stream,
    };
  }
}
