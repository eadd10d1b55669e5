import { InvalidArgumentError, type User, usernameProblem } from "@kiln/domain";
import { adminRepos, isUniqueViolation, redirects, repositories, users } from "@kiln/storage";
import { seeAllViewer } from "../access/actor.js";
import { type CredentialCache, credentialCacheOf } from "../auth/credential-cache.js";
import type { ServiceContext } from "../context.js";
import type { RepoService } from "../repos/repo-service.js";

/** A viewer that sees every repository, for housekeeping queries (within the transaction). */
const SEE_ALL = seeAllViewer();

/**
 * Renaming accounts (Forgejo's user_service.RenameUser), for `POST /admin/users/{username}/rename`
 * (individual users) and `POST /orgs/{org}/rename` (organizations). In one transaction the
 * account and its repositories' owner name change, the old name is left redirecting to the
 * account (Forgejo's user_redirect) and each repository directory's move is journalled; the
 * directories move after the commit (see `RepoMoves`), so a kill -9 at any point leaves rows and
 * directories that agree once start-up has finished the journal.
 */
export class RenameService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly cache: CredentialCache = credentialCacheOf(ctx),
  ) {}

  /** Renames an individual user (the admin route). */
  async rename(user: User, newName: string): Promise<void> {
    if (user.type !== "individual")
      throw new InvalidArgumentError(`${user.name} is an organization not a user`);
    await this.renameAccount(user, newName, "The username is already taken.");
  }

  /** Renames an organization (its owners' route); Forgejo answers a taken name with 422. */
  async renameOrg(org: User, newName: string): Promise<void> {
    if (org.type !== "organization") throw new InvalidArgumentError(`${org.name} is not an organization`);
    await this.renameAccount(org, newName, `user already exists [name: ${newName}]`);
  }

  private async renameAccount(account: User, newName: string, taken: string): Promise<void> {
    if (newName === account.name) return;
    const problem = usernameProblem(newName);
    if (problem) throw new InvalidArgumentError(problem);
    await this.ctx.db.transaction().execute(async (trx) => {
      const other = await users.findUserByName(trx, newName);
      if (other && other.id !== account.id) throw new InvalidArgumentError(taken);
      const current = await users.findUserById(trx, account.id);
      if (!current) throw new InvalidArgumentError(taken);
      try {
        await adminRepos.renameAccount(trx, account.id, newName);
      } catch (err) {
        if (isUniqueViolation(err)) throw new InvalidArgumentError(taken);
        throw err;
      }
      await redirects.addUserRedirect(trx, account.id, current.name, newName);
      // Only a change beyond letter case moves directories (they are named in lower case).
      if (newName.toLowerCase() === current.lowerName) return;
      for (let page = 1; ; page++) {
        const batch = await repositories.listVisibleRepositories(trx, { ownerId: account.id }, SEE_ALL, {
          page,
          limit: 100,
        });
        for (const repo of batch.items) {
          await this.repos.moves.journal(
            trx,
            { owner: current.name, name: repo.name },
            { owner: newName, name: repo.name },
          );
        }
        if (batch.items.length < 100) break;
      }
    });
    this.cache.forgetUser(account.id);
    await this.repos.moves.drain();
  }
}
