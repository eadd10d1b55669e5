import {
  AlreadyExistsError,
  InvalidArgumentError,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  type RepoOrder,
  type Repository,
  type User,
} from "@kiln/domain";
import {
  type GitRepository,
  isValidRefName,
  KeyedMutex,
  LfsStore,
  listBranches,
  type RefUpdate,
  RepoStore,
  setDefaultBranch,
} from "@kiln/git";
import {
  isUniqueViolation,
  lfsObjects,
  type RepositoryFilter,
  type RepoViewer,
  repositories,
  users,
} from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { PermissionService } from "../permissions/permission-service.js";
import type { QuotaLedger } from "../quota/ledger.js";
import { withGitErrors } from "./git-errors.js";
import { checkRepoName } from "./repo-names.js";

/** What creating a repository takes (`CreateRepoOption`). */
export interface CreateRepoInput {
  readonly name: string;
  readonly description?: string;
  readonly private?: boolean;
  readonly autoInit?: boolean;
  readonly defaultBranch?: string;
  readonly template?: boolean;
  readonly readme?: string;
}

/** What editing a repository may change (`EditRepoOption`, the parts Kiln keeps). */
export interface EditRepoInput {
  readonly name?: string;
  readonly description?: string;
  readonly website?: string;
  readonly private?: boolean;
  readonly template?: boolean;
  readonly archived?: boolean;
  readonly defaultBranch?: string;
}

/** A viewer that sees every repository, for housekeeping. */
const SEE_ALL = { id: 0, isAdmin: true, isRestricted: false, publicOnly: false } as const;

/**
 * Repositories: their rows, their bare git repositories on disk and their usage in the quota
 * ledger, kept consistent. Creation builds the repository on disk, then records it in a short
 * transaction, removing the directory if that fails; sizes are re-measured after every push and
 * API write and recorded as usage of the owner.
 */
export class RepoService {
  readonly store: RepoStore;
  /** The instance-wide, content-addressed LFS object store. */
  readonly lfs: LfsStore;
  private readonly sizeLocks = new KeyedMutex();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
    private readonly ledger: QuotaLedger,
  ) {
    this.store = new RepoStore({ root: ctx.settings.repository.root });
    this.lfs = new LfsStore(ctx.settings.lfs.path);
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
    await this.checkMayCreate(doer, owner);
    checkRepoName(input.name);
    const defaultBranch = input.defaultBranch || "main";
    if (!isValidRefName(`refs/heads/${defaultBranch}`))
      throw new InvalidArgumentError(`invalid default branch name: ${defaultBranch}`);
    return this.createWith(
      owner,
      input.name,
      {
        isPrivate: input.private ?? false,
        isTemplate: input.template ?? false,
        description: input.description ?? "",
        defaultBranch,
      },
      async () => {
        await withGitErrors(() =>
          this.store.create(owner.name, input.name, {
            defaultBranch,
            ...(input.autoInit
              ? {
                  autoInit: {
                    author: {
                      name: doer.fullName || doer.name,
                      email: doer.email || `${doer.lowerName}@noreply.kiln`,
                    },
                    description: input.description ?? "",
                    ...(input.readme ? { readme: input.readme } : {}),
                  },
                }
              : {}),
          }),
        );
      },
    );
  }

  /**
   * Builds the repository on disk with `makeOnDisk` (which may take long: a clone), measures it,
   * then inserts the row and records its usage in one short transaction; if that fails, the
   * directory is removed. No transaction is held during disk or network work: on the embedded
   * database that would stall every other request (and deadlock a migration from Kiln itself).
   */
  async createWith(
    owner: User,
    name: string,
    values: {
      isPrivate: boolean;
      isTemplate?: boolean;
      description?: string;
      defaultBranch: string;
      isMirror?: boolean;
      originalUrl?: string;
    },
    makeOnDisk: () => Promise<void>,
  ): Promise<Repository> {
    if (await repositories.findRepositoryByName(this.ctx.db, owner.id, name)) throw repoExists();
    if (await this.store.exists(owner.name, name)) {
      throw new AlreadyExistsError(
        `Files already exist for this repository (${owner.name}/${name}): adopt or delete them first.`,
      );
    }
    await makeOnDisk();
    try {
      const disk = await this.measureDisk(owner.name, name);
      return await this.ctx.db.transaction().execute(async (trx) => {
        let row: Repository;
        try {
          row = await repositories.insertRepository(trx, {
            ownerId: owner.id,
            ownerName: owner.name,
            name,
            lowerName: name.toLowerCase(),
            description: values.description ?? "",
            isPrivate: values.isPrivate,
            isTemplate: values.isTemplate ?? false,
            isMirror: values.isMirror ?? false,
            originalUrl: values.originalUrl ?? "",
            defaultBranch: values.defaultBranch,
            ...disk,
          });
        } catch (err) {
          if (isUniqueViolation(err)) throw repoExists();
          throw err;
        }
        await this.ledger.recordRepositoryChange(trx, undefined, row);
        return row;
      });
    } catch (err) {
      await this.store.delete(owner.name, name).catch(() => undefined);
      throw err;
    }
  }

  /**
   * Whether `doer` may create a repository owned by `owner` (403 otherwise): in their own namespace,
   * in an organization where a team lets them, anywhere for site admins; within the creation limit.
   */
  async checkMayCreate(doer: User, owner: User): Promise<void> {
    if (owner.type === "organization") {
      const standing = await this.permissions.inOrganization(owner, doer);
      if (!doer.isAdmin && !standing.permission.canCreateRepository) {
        throw new PermissionDeniedError("Given user is not allowed to create repository in organization.");
      }
    } else if (owner.id !== doer.id && !doer.isAdmin) {
      throw new PermissionDeniedError("Only site admins may create repositories for other users.");
    }
    if (doer.isAdmin) return;
    const limit =
      owner.maxRepoCreation > -1 ? owner.maxRepoCreation : this.ctx.settings.repository.maxCreationLimit;
    if (limit > -1 && (await repositories.countOwnedRepositories(this.ctx.db, owner.id)) >= limit) {
      throw new PermissionDeniedError(`You have already reached your limit of ${limit} repositories.`);
    }
  }

  /**
   * Re-reads a repository's size and emptiness from disk and records the change of usage in the
   * ledger. Measuring happens outside any transaction; refreshes of one repository are serialized
   * so that a slower, older measurement never overwrites a newer one.
   */
  async refreshSize(repoId: number): Promise<Repository> {
    return this.sizeLocks.run(String(repoId), async () => {
      const current = await repositories.findRepositoryById(this.ctx.db, repoId);
      if (!current) throw new NotFoundError(`repository does not exist [id: ${repoId}]`);
      const disk = await this.measureDisk(current.ownerName, current.name);
      return this.ctx.db.transaction().execute(async (trx) => {
        const locked = await repositories.lockRepository(trx, repoId);
        if (!locked) throw new NotFoundError(`repository does not exist [id: ${repoId}]`);
        const after = await repositories.updateRepository(trx, repoId, disk);
        if (!after) throw new NotFoundError();
        await this.ledger.recordRepositoryChange(trx, locked, after);
        return after;
      });
    });
  }

  /** Bytes on disk and whether the repository has any branch. */
  private async measureDisk(owner: string, name: string): Promise<{ gitSize: number; isEmpty: boolean }> {
    const git = await this.store.open(owner, name);
    const [gitSize, branches] = await Promise.all([this.store.size(owner, name), listBranches(git)]);
    return { gitSize, isEmpty: branches.length === 0 };
  }

  /**
   * After a push: when the default branch does not exist but others do (the first push of a
   * branch with another name), that branch becomes the default, as in Forgejo; then sizes.
   */
  async afterPush(repo: Repository, updates: readonly RefUpdate[]): Promise<Repository> {
    const git = await this.git(repo);
    const branches = await listBranches(git);
    if (branches.length > 0 && !branches.some((b) => b.name === repo.defaultBranch)) {
      const pushed = updates.find((u) => u.ref.startsWith("refs/heads/") && !/^0+$/.test(u.newSha));
      const next = pushed
        ? pushed.ref.slice("refs/heads/".length)
        : (branches[0]?.name ?? repo.defaultBranch);
      await setDefaultBranch(git, next);
      await repositories.updateRepository(this.ctx.db, repo.id, { defaultBranch: next });
    }
    return this.refreshSize(repo.id);
  }

  /** Sizes of the given LFS objects that the repository references. */
  async lfsObjectsOf(repo: Repository, oids: readonly string[]): Promise<Map<string, number>> {
    return lfsObjects.lfsObjectsOf(this.ctx.db, repo.id, oids);
  }

  /**
   * Records that the repository references an LFS object (uploaded, or already stored for
   * another repository); a new reference adds its size to `lfs_size` and to the owner's usage.
   */
  async addLfsObject(repo: Repository, oid: string, size: number): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      const locked = await repositories.lockRepository(trx, repo.id);
      if (!locked) throw new NotFoundError();
      if (!(await lfsObjects.addLfsObject(trx, repo.id, oid, size))) return;
      const after = await repositories.updateRepository(trx, repo.id, { lfsSize: locked.lfsSize + size });
      if (after) await this.ledger.recordRepositoryChange(trx, locked, after);
    });
  }

  /** Edits a repository: rename (on disk too), visibility (moving its usage), default branch, flags. */
  async edit(repo: Repository, input: EditRepoInput): Promise<Repository> {
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
    return this.ctx.db.transaction().execute(async (trx) => {
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
      });
      if (!after) throw new NotFoundError();
      await this.ledger.recordRepositoryChange(trx, locked, after);
      if (rename) {
        await withGitErrors(() =>
          this.store.move(
            { owner: repo.ownerName, name: repo.name },
            { owner: repo.ownerName, name: input.name as string },
          ),
        );
      }
      return after;
    });
  }

  /** Deletes a repository: its row (and everything that references it), its usage, then its files. */
  async delete(repo: Repository): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      const locked = await repositories.lockRepository(trx, repo.id);
      if (!locked) throw new NotFoundError();
      await this.ledger.recordRepositoryChange(trx, locked, undefined);
      await repositories.deleteRepository(trx, repo.id);
    });
    try {
      await this.store.delete(repo.ownerName, repo.name);
    } catch (err) {
      this.ctx.logger.error(
        { err: (err as Error).message, repo: `${repo.ownerName}/${repo.name}` },
        "could not remove repository files",
      );
    }
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

function repoExists(): AlreadyExistsError {
  return new AlreadyExistsError("The repository with the same name already exists.");
}
