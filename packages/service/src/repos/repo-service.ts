import {
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  type PullsConfig,
  type RepoOrder,
  type Repository,
  type User,
} from "@kiln/domain";
import { type GitRepository, type LfsStore, listBranches, RepoStore, setDefaultBranch } from "@kiln/git";
import {
  type Db,
  forks,
  type RepositoryFilter,
  type RepoViewer,
  redirects,
  repositories,
  users,
} from "@kiln/storage";
import { seeAllViewer } from "../access/actor.js";
import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import type { QuotaLedger } from "../quota/ledger.js";
import { withGitErrors } from "./git-errors.js";
import { HistoryIndexer } from "./history-index.js";
import { RefJournal } from "./ref-journal.js";
import {
  type CreateRepoInput,
  type NewRepoValues,
  RepoCreateService,
  repoExists,
} from "./repo-create-service.js";
import { RepoLfsService } from "./repo-lfs-service.js";
import { RepoMoves } from "./repo-moves.js";
import { checkRepoName } from "./repo-names.js";
import { RepoSizeService } from "./repo-size-service.js";

/** What editing a repository may change (`EditRepoOption`, the parts Kiln keeps). */
export interface EditRepoInput {
  readonly name?: string;
  readonly description?: string;
  readonly website?: string;
  readonly private?: boolean;
  readonly template?: boolean;
  readonly archived?: boolean;
  readonly defaultBranch?: string;
  /** Pull request settings to change; the others stay. */
  readonly pulls?: Partial<PullsConfig>;
}

/** A viewer that sees every repository, for housekeeping. */
const SEE_ALL = seeAllViewer();

/**
 * Repositories: their rows, their bare git repositories on disk and their usage in the quota
 * ledger, kept consistent. Creation (RepoCreateService) builds the repository on disk, then
 * records it; sizes are re-measured after every ref move (RefUpdates) and recorded as usage of the
 * owner (RepoSizeService), LFS references likewise (RepoLfsService).
 */
export class RepoService {
  readonly store: RepoStore;
  /** The journalled directory moves of renames and transfers (carried out after commit). */
  readonly moves: RepoMoves;
  /** The journal of ref moves, which finishes after a crash what git moved and the database missed. */
  readonly journal: RefJournal;
  /** The instance-wide, content-addressed LFS object store. */
  readonly lfs: LfsStore;
  private readonly sizes: RepoSizeService;
  private readonly lfsRefs: RepoLfsService;
  private readonly creation: RepoCreateService;
  private readonly pushListeners: ((repo: Repository) => void)[] = [];
  /** Commit-graph writes started after pushes, awaited by {@link idle}. */
  private readonly historyIndex: HistoryIndexer;

  constructor(
    private readonly ctx: ServiceContext,
    permissions: PermissionService,
    private readonly ledger: QuotaLedger,
  ) {
    this.store = new RepoStore({ root: ctx.settings.repository.root });
    this.moves = new RepoMoves(ctx, this.store);
    this.journal = new RefJournal(ctx, (repo) => this.git(repo));
    this.sizes = new RepoSizeService(ctx, this.store, ledger);
    this.historyIndex = new HistoryIndexer(ctx);
    this.lfsRefs = new RepoLfsService(ctx, ledger);
    this.lfs = this.lfsRefs.store;
    this.creation = new RepoCreateService(ctx, permissions, ledger, this.store, this.sizes);
  }

  /** The repository `owner/name` whoever asks, or undefined (callers check permission themselves). */
  async findByName(owner: User, name: string): Promise<Repository | undefined> {
    return repositories.findRepositoryByName(this.ctx.db, owner.id, name);
  }

  /** The owner account of a repository. */
  async ownerOf(repo: Repository): Promise<User> {
    const owner = await users.findUserById(this.ctx.db, repo.ownerId);
    if (!owner) throw new NotFoundError();
    return owner;
  }

  /** The bare git repository of a repository row. */
  async git(repo: Repository): Promise<GitRepository> {
    return withGitErrors(() => this.store.open(repo.ownerName, repo.name));
  }

  /**
   * Creates a repository for `owner` (the doer, or an organization in which the doer may create
   * repositories), honouring `[repository] MAX_CREATION_LIMIT` and the owner's own limit.
   */
  async create(doer: User, owner: User, input: CreateRepoInput): Promise<Repository> {
    return this.creation.create(doer, owner, input);
  }

  /** Builds a repository on disk with `makeOnDisk`, then records it (RepoCreateService.createWith). */
  async createWith(
    owner: User,
    name: string,
    values: NewRepoValues,
    makeOnDisk: () => Promise<void>,
  ): Promise<Repository> {
    return this.creation.createWith(owner, name, values, makeOnDisk);
  }

  /** Whether `doer` may create a repository owned by `owner` (403 otherwise). */
  async checkMayCreate(doer: User, owner: User): Promise<void> {
    return this.creation.checkMayCreate(doer, owner);
  }

  /** Re-measures a repository on disk and records the change of its owner's usage. */
  async refreshSize(repoId: number): Promise<Repository> {
    return this.sizes.refresh(repoId);
  }

  /**
   * Tells the repository's own followers that its refs moved (RefUpdates calls it once a move is
   * recorded): the history index is rewritten and each {@link onPushed} listener started, all in
   * the background.
   */
  refsMoved(after: Repository, git: GitRepository): void {
    // The history index follows in the background (HistoryIndexer); it is not part of the size.
    this.historyIndex.schedule(after.id, git);
    for (const listener of this.pushListeners) listener(after);
  }

  /**
   * Adds a function told (synchronously, after RefUpdates recorded a move) that refs of
   * a repository changed: it must start its own work in the background and never throw.
   */
  onPushed(listener: (repo: Repository) => void): void {
    this.pushListeners.push(listener);
  }

  /**
   * Waits for the background work started after pushes (tests, shutdown): the history index and
   * the after-commit stage (pull request re-checks).
   */
  async idle(): Promise<void> {
    await this.ctx.events.settled();
    await this.historyIndex.idle();
  }

  /** Sizes of the given LFS objects that the repository references. */
  async lfsObjectsOf(repo: Repository, oids: readonly string[]): Promise<Map<string, number>> {
    return this.lfsRefs.objectsOf(repo, oids);
  }

  /** Sets `lfs_size` to the sum of the repository's LFS references, recording the change of usage. */
  async recountLfsSize(repoId: number): Promise<{ before: number; after: number }> {
    return this.lfsRefs.recount(repoId);
  }

  /** Records that the repository references an LFS object, counting a new reference as usage. */
  async addLfsObject(repo: Repository, oid: string, size: number): Promise<void> {
    return this.lfsRefs.add(repo, oid, size);
  }

  /** Edits a repository: rename (on disk too), visibility (moving its usage), default branch, flags. */
  async edit(repo: Repository, requested: EditRepoInput): Promise<Repository> {
    // A fork of a private repository (or of a private owner's) stays private, whatever is asked;
    // any other fork may be made private or public as its owner likes.
    const base =
      requested.private === false && repo.isFork && repo.forkId !== null
        ? await repositories.findRepositoryById(this.ctx.db, repo.forkId)
        : undefined;
    const baseOwner = base ? await users.findUserById(this.ctx.db, base.ownerId) : undefined;
    const mustStayPrivate = base !== undefined && (base.isPrivate || baseOwner?.visibility === "private");
    const input = mustStayPrivate ? { ...requested, private: true } : requested;
    const rename = input.name !== undefined && input.name !== repo.name;
    if (rename) checkRepoName(input.name as string);
    if (input.defaultBranch !== undefined && input.defaultBranch !== repo.defaultBranch) {
      const git = await this.git(repo);
      const branches = await listBranches(git);
      if (branches.length > 0 && !branches.some((b) => b.name === input.defaultBranch)) {
        throw new InvalidArgumentError(`branch does not exist [name: ${input.defaultBranch}]`);
      }
      await withGitErrors(() => setDefaultBranch(git, input.defaultBranch as string));
    }
    const after = await this.ctx.db.transaction().execute(async (trx) => {
      const locked = await repositories.lockRepository(trx, repo.id);
      if (!locked) throw new NotFoundError();
      if (rename && (await repositories.findRepositoryByName(trx, repo.ownerId, input.name as string))) {
        if ((input.name as string).toLowerCase() !== repo.lowerName) throw repoExists();
      }
      const after = await repositories.updateRepository(trx, repo.id, {
        ...(rename ? { name: input.name as string, lowerName: (input.name as string).toLowerCase() } : {}),
        ...(input.description !== undefined ? { description: input.description } : {}),
        ...(input.website !== undefined ? { website: input.website } : {}),
        ...(input.private !== undefined ? { isPrivate: input.private } : {}),
        ...(input.template !== undefined ? { isTemplate: input.template } : {}),
        ...(input.archived !== undefined ? { isArchived: input.archived } : {}),
        ...(input.defaultBranch !== undefined ? { defaultBranch: input.defaultBranch } : {}),
        ...(input.pulls && Object.keys(input.pulls).length > 0
          ? { pullsConfig: JSON.stringify({ ...locked.pullsConfig, ...input.pulls }) }
          : {}),
      });
      if (!after) throw new NotFoundError();
      await this.ledger.recordRepositoryChange(trx, locked, after);
      if (rename) {
        // Forgejo's NewRepoRedirect; the directory moves after the commit (journalled).
        await redirects.addRepoRedirect(trx, repo.ownerId, repo.id, locked.name, input.name as string);
        await this.moves.journal(
          trx,
          { owner: locked.ownerName, name: locked.name },
          { owner: locked.ownerName, name: input.name as string },
        );
      }
      return after;
    });
    if (rename) await this.moves.drain();
    return after;
  }

  /**
   * Deletes a repository: its row (and everything that references it), its usage, then its files.
   * With a doer, the `repository` event `deleted` is recorded first, while the row is there.
   */
  async delete(repo: Repository, doerId?: number): Promise<void> {
    await this.ctx.db.transaction().execute((trx) => this.deleteRows(trx, repo, doerId));
    await this.removeFiles(repo);
  }

  /**
   * The rows half of {@link delete}, in the caller's transaction (deleting an account with all its
   * repositories commits once); the caller removes the files with {@link removeFiles} after commit.
   */
  async deleteRows(trx: Db, repo: Repository, doerId?: number): Promise<void> {
    // A fork's parent is locked before the fork, the order a parent's own deletion (which detaches
    // its forks) and a fork's creation take, so concurrent deletions and creations of its forks
    // recount its forks_count one after the other.
    if (repo.forkId !== null) await repositories.lockRepository(trx, repo.forkId);
    const locked = await repositories.lockRepository(trx, repo.id);
    if (!locked) throw new NotFoundError();
    if (doerId !== undefined) {
      await this.ctx.events.record(trx, { ...inRepo(repo, doerId), type: "repository", action: "deleted" });
    }
    await this.ledger.recordRepositoryChange(trx, locked, undefined);
    // Its forks become ordinary repositories (each owns its objects on disk, docs/git.md#forks);
    // its parent counts one fork less.
    await forks.detachForks(trx, repo.id);
    await repositories.deleteRepository(trx, repo.id);
    if (locked.forkId !== null) await forks.recountForks(trx, locked.forkId);
    // Its directory goes after the commit; journalled here, so a crash in between cannot leave it.
    await this.moves.journalRemoval(trx, locked.ownerName, locked.name);
  }

  /**
   * Removes deleted repositories' directories (this one's and any other journalled): a failure is
   * logged and stays journalled for the next pass or start-up (the row is already gone).
   */
  async removeFiles(_repo: Repository): Promise<void> {
    await this.moves.drainRemovals();
  }

  /** One page of repositories matching `filter` that `viewer` may see (the access module's fragment). */
  async list(
    viewer: RepoViewer,
    filter: RepositoryFilter,
    page: PageRequest,
    order: RepoOrder = "id",
  ): Promise<Paged<Repository>> {
    return repositories.listVisibleRepositories(this.ctx.db, filter, viewer, page, order);
  }

  /** Every repository of an owner, for housekeeping (no visibility filter). */
  async allOf(ownerId: number): Promise<Repository[]> {
    const out: Repository[] = [];
    for (let page = 1; ; page++) {
      const batch = await repositories.listVisibleRepositories(this.ctx.db, { ownerId }, SEE_ALL, {
        page,
        limit: 100,
      });
      out.push(...batch.items);
      if (page * 100 >= batch.total) return out;
    }
  }
}
