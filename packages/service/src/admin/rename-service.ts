import { InvalidArgumentError, type User, usernameProblem } from "@kiln/domain";
import { adminRepos, isUniqueViolation, repositories, users } from "@kiln/storage";
import { type CredentialCache, credentialCacheOf } from "../auth/credential-cache.js";
import type { ServiceContext } from "../context.js";
import type { RepoService } from "../repos/repo-service.js";

/** A viewer that sees every repository, for housekeeping queries (within the transaction). */
const SEE_ALL = { id: 0, isAdmin: true, isRestricted: false, publicOnly: false } as const;

/**
 * `POST /admin/users/{username}/rename` (Forgejo's user_service.RenameUser): a new name for an
 * individual user, whose repositories move with it on disk. The rows change in one transaction;
 * the directories are moved inside it, before the commit, and moved back if anything fails, so
 * rows and disk agree. Forgejo's redirects from the old name are not kept.
 */
export class RenameService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly cache: CredentialCache = credentialCacheOf(ctx),
  ) {}

  async rename(user: User, newName: string): Promise<void> {
    if (user.type !== "individual")
      throw new InvalidArgumentError(`${user.name} is an organization not a user`);
    if (newName === user.name) return;
    const problem = usernameProblem(newName);
    if (problem) throw new InvalidArgumentError(problem);
    const store = this.repos.store;
    const moved: { name: string }[] = [];
    const moveBack = async () => {
      for (const repo of moved.reverse()) {
        await store
          .move({ owner: newName, name: repo.name }, { owner: user.name, name: repo.name })
          .catch((err) => this.ctx.logger.error({ err: String(err) }, "could not move a repository back"));
      }
    };
    try {
      await this.ctx.db.transaction().execute(async (trx) => {
        const taken = await users.findUserByName(trx, newName);
        if (taken && taken.id !== user.id) throw new InvalidArgumentError("The username is already taken.");
        try {
          await adminRepos.renameAccount(trx, user.id, newName);
        } catch (err) {
          if (isUniqueViolation(err)) throw new InvalidArgumentError("The username is already taken.");
          throw err;
        }
        // Only a change beyond letter case moves directories (they are named in lower case).
        if (newName.toLowerCase() === user.lowerName) return;
        const owned: string[] = [];
        for (let page = 1; ; page++) {
          const batch = await repositories.listVisibleRepositories(trx, { ownerId: user.id }, SEE_ALL, {
            page,
            limit: 100,
          });
          owned.push(...batch.items.map((r) => r.name));
          if (batch.items.length < 100) break;
        }
        for (const name of owned) {
          const repo = { name };
          if (!(await store.exists(user.name, repo.name))) continue;
          await store.move({ owner: user.name, name: repo.name }, { owner: newName, name: repo.name });
          moved.push({ name: repo.name });
        }
      });
    } catch (err) {
      await moveBack();
      throw err;
    }
    this.cache.forgetUser(user.id);
  }
}
