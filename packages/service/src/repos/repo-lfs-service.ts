import { NotFoundError, type Repository } from "@kiln/domain";
import { type LfsReferences, LfsStore, type LfsViewer } from "@kiln/git";
import { type Db, lfsObjects, repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { QuotaLedger } from "../quota/ledger.js";

/**
 * LFS bookkeeping: the instance-wide object store and which repositories reference which
 * objects, each reference counted in the repository's `lfs_size` and its owner's usage. It is
 * the store's {@link LfsReferences}, so the LFS endpoints find it on the store. A repository
 * gets a reference by a verified upload, or without upload when the user can see another
 * repository that holds the object (as Forgejo's batch handler decides).
 */
export class RepoLfsService implements LfsReferences {
  /** The instance-wide, content-addressed LFS object store. */
  readonly store: LfsStore;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly ledger: QuotaLedger,
  ) {
    this.store = new LfsStore(ctx.settings.lfs.path, { references: this });
  }

  /** Sizes of the given LFS objects that the repository references. */
  async objectsOf(repo: Repository, oids: readonly string[]): Promise<Map<string, number>> {
    return this.of(repo.id, oids);
  }

  /** Sizes of the given LFS objects that the repository with this id references. */
  async of(repoId: number, oids: readonly string[]): Promise<Map<string, number>> {
    return lfsObjects.lfsObjectsOf(this.ctx.db, repoId, oids);
  }

  /**
   * Records that the repository references an LFS object whose upload was verified; a new
   * reference adds its size to `lfs_size` and to the owner's usage, in the same transaction.
   */
  async add(repo: Repository | number, oid: string, size: number): Promise<void> {
    await this.link(typeof repo === "number" ? repo : repo.id, oid, size, async () => true);
  }

  /**
   * Links an object already in the store with `size` bytes to the repository without upload,
   * when `viewer` can see a repository that references it with that size (Forgejo's
   * `LFSObjectAccessible`, with the visibility rules of every list); false, linking nothing,
   * otherwise. The check and the link are one transaction.
   */
  async linkVisible(repoId: number, viewer: LfsViewer, oid: string, size: number): Promise<boolean> {
    return this.link(repoId, oid, size, (trx) => lfsObjects.lfsObjectVisibleTo(trx, viewer, oid, size));
  }

  /**
   * Sets the repository's `lfs_size` to the sum of the objects it references (`kiln doctor quota
   * --fix`), recording the change of its owner's usage in the same transaction.
   */
  async recount(repoId: number): Promise<{ before: number; after: number }> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const locked = await repositories.lockRepository(trx, repoId);
      if (!locked) throw new NotFoundError(`repository does not exist [id: ${repoId}]`);
      const total = await lfsObjects.sumLfsSize(trx, repoId);
      if (total !== locked.lfsSize) {
        const after = await repositories.updateRepository(trx, repoId, { lfsSize: total });
        if (after) await this.ledger.recordRepositoryChange(trx, locked, after);
      }
      return { before: locked.lfsSize, after: total };
    });
  }

  private async link(
    repoId: number,
    oid: string,
    size: number,
    allowed: (trx: Db) => Promise<boolean>,
  ): Promise<boolean> {
    return this.ctx.db.transaction().execute(async (trx) => {
      const locked = await repositories.lockRepository(trx, repoId);
      if (!locked) throw new NotFoundError();
      if ((await lfsObjects.findLfsObject(trx, repoId, oid)) === size) return true;
      if (!(await allowed(trx))) return false;
      if (!(await lfsObjects.addLfsObject(trx, repoId, oid, size))) return false;
      const after = await repositories.updateRepository(trx, repoId, { lfsSize: locked.lfsSize + size });
      if (after) await this.ledger.recordRepositoryChange(trx, locked, after);
      return true;
    });
  }
}
