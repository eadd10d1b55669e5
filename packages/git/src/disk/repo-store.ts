import { randomUUID } from "node:crypto";
import { mkdir, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { stopBatchProcesses } from "../objects/cat-file.js";
import { changeFiles } from "../objects/change-files.js";
import { forgetRepositoryCache } from "../objects/iso.js";
import { forgetRepository } from "../objects/repo-state.js";
import type { SignatureInput } from "../objects/signature.js";
import { KeyedMutex } from "../util/keyed-mutex.js";
import { isValidRefName } from "../util/ref-names.js";
import { runGitOk } from "../util/run-git.js";
import { directorySize } from "./directory-size.js";
import type { GitRepository } from "./git-repository.js";
import { installHooks } from "./install-hooks.js";
import { isGitLeftover, type Leftover, storeLeftovers } from "./leftovers.js";
import { normalizeRepoName } from "./names.js";

/**
 * Whether `path`, relative to a git directory, is git's commit-graph: an index Kiln writes after
 * pushes, in the background, so it is left out of a repository's size (which is then the same
 * whenever it is measured, and counts only what was pushed).
 */
function isHistoryIndex(relative: readonly string[]): boolean {
  const [first, second, third] = relative;
  return first === "objects" && second === "info" && (third === "commit-graph" || third === "commit-graphs");
}

/** Options of a {@link RepoStore}. */
export interface RepoStoreOptions {
  /** The directory holding `<owner>/<name>.git` (Kiln: `<work-path>/data/repositories`). */
  readonly root: string;
}

/** Options of {@link RepoStore.create}. */
export interface CreateRepositoryOptions {
  /** The branch HEAD points at; `main` when absent. */
  readonly defaultBranch?: string;
  /** Commit a README on the default branch (Forgejo's `auto_init`). */
  readonly autoInit?: {
    readonly author: SignatureInput;
    /** README.md content; `# <name>` and the description when absent. */
    readonly readme?: string;
    readonly description?: string;
    readonly message?: string;
    /** More files of the initial commit (e.g. `LICENSE`). */
    readonly files?: readonly { readonly path: string; readonly content: string }[];
  };
}

/**
 * The bare repositories on disk, at `<root>/<owner>/<name>.git` with lower-cased names as
 * Forgejo lays them out. Creation, deletion and moves take the per-repository write lock and
 * either complete or leave nothing behind.
 */
/**
 * Forgets what reads keep of the repository at `gitdir` (its ref snapshot, its object cache
 * incarnation, its parsed packs and its `cat-file` processes): after a create, adopt, delete or
 * move, whatever is at that path now is another repository.
 */
function forgetRepositoryState(gitdir: string): void {
  forgetRepository(gitdir);
  forgetRepositoryCache(gitdir);
  stopBatchProcesses(gitdir);
}

/**
 * The store name of a repository's wiki: `<name>.wiki`, so its directory is `<name>.wiki.git` beside
 * the repository, as Forgejo lays it out (no repository may be named `*.wiki`).
 */
export function wikiRepoName(name: string): string {
  return `${name}.wiki`;
}

export class RepoStore {
  readonly root: string;
  readonly #locks = new KeyedMutex();
  /** Repositories {@link open} found, until {@link delete} or {@link move} takes them away. */
  readonly #opened = new Set<string>();

  constructor(options: RepoStoreOptions) {
    this.root = options.root;
  }

  /** The directory of a repository, whether or not it exists. Throws invalid-argument for bad names. */
  pathOf(owner: string, name: string): string {
    const normalized = normalizeRepoName(owner, name);
    return join(this.root, normalized.owner, `${normalized.name}.git`);
  }

  #handle(owner: string, name: string): GitRepository {
    const normalized = normalizeRepoName(owner, name);
    const gitdir = this.pathOf(owner, name);
    return {
      owner: normalized.owner,
      name: normalized.name,
      gitdir,
      withWriteLock: (fn) => this.#locks.run(gitdir, fn),
    };
  }

  /** Whether the repository's directory exists. */
  async exists(owner: string, name: string): Promise<boolean> {
    return stat(join(this.pathOf(owner, name), "HEAD")).then(
      () => true,
      () => false,
    );
  }

  /**
   * A handle on an existing repository; throws not-found when there is none. A repository once
   * found is remembered until this store deletes or moves it, so opening it again costs no
   * file-system lookup.
   */
  async open(owner: string, name: string): Promise<GitRepository> {
    const gitdir = this.pathOf(owner, name);
    if (!this.#opened.has(gitdir)) {
      if (!(await this.exists(owner, name)))
        throw new GitNotFoundError(`repository ${owner}/${name} does not exist`);
      this.#opened.add(gitdir);
    }
    return this.#handle(owner, name);
  }

  /**
   * Creates a bare repository with HEAD on the default branch and Kiln's hooks, optionally with
   * a README commit. Built in a temporary directory and renamed into place, so a failure leaves
   * nothing. Throws already-exists when the repository exists.
   */
  async create(owner: string, name: string, options: CreateRepositoryOptions = {}): Promise<GitRepository> {
    const branch = options.defaultBranch || "main";
    if (!isValidRefName(branch)) throw new GitInvalidArgumentError(`invalid default branch: ${branch}`);
    const handle = this.#handle(owner, name);
    return handle.withWriteLock(async () => {
      if (await this.exists(owner, name))
        throw new GitAlreadyExistsError(`repository ${owner}/${name} already exists`);
      // A wiki left by a repository of this name that is gone belongs to nobody: a new
      // repository never inherits its pages.
      await this.#discard(this.#handle(owner, wikiRepoName(name)).gitdir);
      const temp = await this.tempDir();
      try {
        await runGitOk(["init", "--bare", "--quiet", "--template=", `--initial-branch=${branch}`, temp]);
        await writeFile(join(temp, "HEAD"), `ref: refs/heads/${branch}\n`);
        await installHooks(temp);
        if (options.autoInit) {
          const init = options.autoInit;
          const readme = init.readme ?? `# ${name}\n${init.description ? `\n${init.description}\n` : ""}`;
          const tempRepo: GitRepository = { ...handle, gitdir: temp, withWriteLock: (fn) => fn() };
          await changeFiles(tempRepo, {
            branch,
            message: init.message ?? "Initial commit",
            author: init.author,
            files: [
              { operation: "create", path: "README.md", content: Buffer.from(readme) },
              ...(init.files ?? []).map((file) => ({
                operation: "create" as const,
                path: file.path,
                content: Buffer.from(file.content),
              })),
            ],
          });
        }
        await mkdir(dirname(handle.gitdir), { recursive: true });
        await rename(temp, handle.gitdir);
        forgetRepositoryState(handle.gitdir);
      } catch (error) {
        await rm(temp, { recursive: true, force: true });
        throw error;
      }
      return handle;
    });
  }

  /**
   * Moves a complete bare repository built elsewhere on the same file system (e.g. a clone in
   * {@link tempDir}) into place as `<owner>/<name>`, with hooks. Throws already-exists.
   */
  async adopt(dir: string, owner: string, name: string): Promise<GitRepository> {
    const handle = this.#handle(owner, name);
    return handle.withWriteLock(async () => {
      if (await this.exists(owner, name))
        throw new GitAlreadyExistsError(`repository ${owner}/${name} already exists`);
      await this.#discard(this.#handle(owner, wikiRepoName(name)).gitdir);
      await installHooks(dir);
      await mkdir(dirname(handle.gitdir), { recursive: true });
      await rename(dir, handle.gitdir);
      forgetRepositoryState(handle.gitdir);
      return handle;
    });
  }

  /**
   * Deletes a repository's directory, and its wiki's (`<name>.wiki.git`) when it has one; throws
   * not-found when the repository does not exist. Both are renamed into `.tmp` before removal.
   */
  async delete(owner: string, name: string): Promise<void> {
    const handle = this.#handle(owner, name);
    const wiki = this.#handle(owner, wikiRepoName(name));
    await this.#locks.runAll([handle.gitdir, wiki.gitdir], async () => {
      if (!(await this.exists(owner, name)))
        throw new GitNotFoundError(`repository ${owner}/${name} does not exist`);
      const trash = await this.tempDir();
      await rm(trash, { recursive: true, force: true });
      await mkdir(trash, { recursive: true });
      // The wiki goes first: a crash in between leaves a repository without its wiki, never a wiki
      // without its repository.
      if (await this.exists(owner, wikiRepoName(name))) {
        await rename(wiki.gitdir, join(trash, "wiki.git"));
        this.#opened.delete(wiki.gitdir);
        forgetRepositoryState(wiki.gitdir);
      }
      await rename(handle.gitdir, join(trash, "repo.git"));
      this.#opened.delete(handle.gitdir);
      forgetRepositoryState(handle.gitdir);
      await rm(trash, { recursive: true, force: true });
    });
  }

  /**
   * Renames a repository or transfers it to another owner, its wiki (`<name>.wiki.git`) with it
   * when it has one, then makes sure the hooks are current. Throws not-found for a missing source
   * and already-exists for a taken target.
   */
  async move(
    from: { owner: string; name: string },
    to: { owner: string; name: string },
  ): Promise<GitRepository> {
    const source = this.#handle(from.owner, from.name);
    const target = this.#handle(to.owner, to.name);
    const sourceWiki = this.#handle(from.owner, wikiRepoName(from.name));
    const targetWiki = this.#handle(to.owner, wikiRepoName(to.name));
    const dirs = [source.gitdir, target.gitdir, sourceWiki.gitdir, targetWiki.gitdir];
    return this.#locks.runAll([...new Set(dirs)], async () => {
      if (!(await this.exists(from.owner, from.name))) {
        throw new GitNotFoundError(`repository ${from.owner}/${from.name} does not exist`);
      }
      const hasWiki = await this.exists(from.owner, wikiRepoName(from.name));
      if (source.gitdir !== target.gitdir) {
        if (await this.exists(to.owner, to.name)) {
          throw new GitAlreadyExistsError(`repository ${to.owner}/${to.name} already exists`);
        }
        await mkdir(dirname(target.gitdir), { recursive: true });
        // A wiki left at the target by an earlier crash belongs to no repository: it goes, whether
        // or not the moving repository has a wiki of its own.
        await this.#discard(targetWiki.gitdir);
        if (hasWiki) {
          await rename(sourceWiki.gitdir, targetWiki.gitdir);
          this.#opened.delete(sourceWiki.gitdir);
          forgetRepositoryState(sourceWiki.gitdir);
          forgetRepositoryState(targetWiki.gitdir);
        }
        await rename(source.gitdir, target.gitdir);
        this.#opened.delete(source.gitdir);
        forgetRepositoryState(source.gitdir);
        forgetRepositoryState(target.gitdir);
      }
      await installHooks(target.gitdir);
      if (hasWiki) await installHooks(targetWiki.gitdir);
      return target;
    });
  }

  /** Removes a directory by renaming it into `.tmp` first (nothing when it does not exist). */
  async #discard(dir: string): Promise<void> {
    const exists = await stat(dir).then(
      () => true,
      () => false,
    );
    if (!exists) return;
    const trash = await this.tempDir();
    await rm(trash, { recursive: true, force: true });
    await rename(dir, trash);
    this.#opened.delete(dir);
    forgetRepositoryState(dir);
    await rm(trash, { recursive: true, force: true });
  }

  /** Bytes on disk (Forgejo's git_size) without git's quarantines and temporary packs: not the repository's. */
  async size(owner: string, name: string): Promise<number> {
    const repo = await this.open(owner, name);
    return directorySize(repo.gitdir, (path) => isGitLeftover(path) || isHistoryIndex(path));
  }

  /** What unfinished work left (quarantines, `.tmp`); some may be work going on: see `modified`. */
  leftovers(): Promise<Leftover[]> {
    return storeLeftovers(this.root);
  }

  /** (Re)writes Kiln's hooks in an existing repository; resolves with whether anything changed. */
  async ensureHooks(owner: string, name: string): Promise<boolean> {
    const repo = await this.open(owner, name);
    return repo.withWriteLock(() => installHooks(repo.gitdir));
  }

  /** A fresh empty directory on the store's file system for building or discarding repositories. */
  async tempDir(): Promise<string> {
    const dir = join(this.root, ".tmp", randomUUID());
    await mkdir(dir, { recursive: true });
    return dir;
  }
}
