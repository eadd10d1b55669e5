import { NotFoundError, type Repository } from "@kiln/domain";
import { repoFlags } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/**
 * Repository flags (Forgejo's routers/api/v1/repo/flags.go): names a site administrator puts on a
 * repository, when `[repository] ENABLE_FLAGS` is on. The routes are the site administrator's;
 * this service only keeps the names.
 */
export class RepoFlagService {
  constructor(private readonly ctx: ServiceContext) {}

  list(repo: Repository): Promise<string[]> {
    return repoFlags.listFlags(this.ctx.db, repo.id);
  }

  /** Whether the repository has the flag: NotFound when not, as Forgejo answers 404. */
  async check(repo: Repository, name: string): Promise<void> {
    if (!(await repoFlags.hasFlag(this.ctx.db, repo.id, name))) throw new NotFoundError("flag not found");
  }

  add(repo: Repository, name: string): Promise<void> {
    return repoFlags.addFlag(this.ctx.db, repo.id, name);
  }

  async remove(repo: Repository, name: string): Promise<void> {
    await repoFlags.deleteFlag(this.ctx.db, repo.id, name);
  }

  /** Replaces every flag at once (none: removes them all), in one transaction. */
  replace(repo: Repository, names: readonly string[]): Promise<void> {
    return this.ctx.db.transaction().execute((trx) => repoFlags.replaceFlags(trx, repo.id, names));
  }
}
