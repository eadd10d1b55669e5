import { NotFoundError, type Repository } from "@kiln/domain";
import { LfsStore } from "@kiln/git";
import { lfsObjects, repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { QuotaLedger } from "../quota/ledger.js";

/**
 * LFS bookkeeping: the instance-wide object store and which repositories reference which
 * objects, each reference counted in the repository's `lfs_size` and its owner's usage.
 */
export class RepoLfsService {
  /** The instance-wide, content-addressed LFS object store. */
  readonly store: LfsStore;

  constructor(
    private readonly ctx: ServiceContext,
    private readonly ledger: QuotaLedger,
  ) {
    this.store = new LfsStore(ctx.settings.lfs.path);
  }

  /** Sizes of the given LFS objects that the repository references. */
  async objectsOf(repo: Repository, oids: readonly string[]): Promise<Map<string, number>> {
    return lfsObjects.lfsObjectsOf(this.ctx.db, repo.id, oids);
  }

  /**
   * Records that the repository references an LFS object (uploaded, or already stored for
   * another repository); a new reference adds its size to `lfs_size` and to the owner's usage.
   */
  async add(repo: Repository, oid: string, size: number): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      const locked = await repositories.lockRepository(trx, repo.id);
      if (!locked) throw new NotFoundError();
      if (!(await lfsObjects.addLfsObject(trx, repo.id, oid, size))) return;
      const after = await repositories.updateRepository(trx, repo.id, { lfsSize: locked.lfsSize + size });
      if (after) await this.ledger.recordRepositoryChange(trx, locked, after);
    });
  }
}
