import { NotFoundError, type Repository } from "@kiln/domain";
import { KeyedMutex, listBranches, type RepoStore } from "@kiln/git";
import { repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { QuotaLedger } from "../quota/ledger.js";

/**
 * Measures repositories on disk (size and emptiness) and records the change of usage of their
 * owner in the quota ledger, after every push and API write.
 */
export class RepoSizeService {
  private readonly locks = new KeyedMutex();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly store: RepoStore,
    private readonly ledger: QuotaLedger,
  ) {}

  /**
   * Re-reads a repository's size and emptiness from disk and records the change of usage in the
   * ledger. Measuring happens outside any transaction; refreshes of one repository are serialized
   * so that a slower, older measurement never overwrites a newer one.
   */
  async refresh(repoId: number): Promise<Repository> {
    return this.locks.run(String(repoId), async () => {
      const current = await repositories.findRepositoryById(this.ctx.db, repoId);
      if (!current) throw new NotFoundError(`repository does not exist [id: ${repoId}]`);
      const disk = await this.measure(current.ownerName, current.name);
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
  async measure(owner: string, name: string): Promise<{ gitSize: number; isEmpty: boolean }> {
    const git = await this.store.open(owner, name);
    const [gitSize, branches] = await Promise.all([this.store.size(owner, name), listBranches(git)]);
    return { gitSize, isEmpty: branches.length === 0 };
  }
}
