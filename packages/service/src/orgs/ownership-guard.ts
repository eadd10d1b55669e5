import { InvalidArgumentError, type Repository, type User } from "@kiln/domain";
import { orgs, repositories, users } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { DeletionGuard } from "../users/user-service.js";

/** A viewer that sees every repository, for housekeeping queries. */
const SEE_ALL = { id: 0, isAdmin: true, isRestricted: false, publicOnly: false } as const;

/** Deletes one repository completely (rows, files, usage); provided by the repository service. */
export type RepositoryRemover = (repo: Repository) => Promise<void>;

/**
 * The guard on deleting a user (forge-api.md rule 17, "guarded against abuse"): a user who still
 * owns repositories, or is the last owner of an organization, is refused with 422 unless `purge`
 * is set; with `purge`, their repositories and the organizations they alone own (with those
 * organizations' repositories) are deleted first.
 */
export function ownershipGuard(ctx: ServiceContext, removeRepository: RepositoryRemover): DeletionGuard {
  return async (user: User, { purge }) => {
    const owned = await repositories.countOwnedRepositories(ctx.db, user.id);
    const soleOwned = await orgs.soleOwnedOrgs(ctx.db, user.id);
    if (!purge) {
      if (owned > 0) {
        throw new InvalidArgumentError(
          `user still has ownership of repositories [uid: ${user.id}, count: ${owned}]`,
        );
      }
      if (soleOwned.length > 0) {
        throw new InvalidArgumentError(
          `user is the last owner of organizations [uid: ${user.id}, orgs: ${soleOwned.map((o) => o.name).join(", ")}]`,
        );
      }
      return;
    }
    for (const owner of [user, ...soleOwned]) {
      for (;;) {
        const batch = await repositories.listVisibleRepositories(ctx.db, { ownerId: owner.id }, SEE_ALL, {
          page: 1,
          limit: 50,
        });
        if (batch.items.length === 0) break;
        for (const repo of batch.items) await removeRepository(repo);
      }
    }
    for (const org of soleOwned) await users.deleteUser(ctx.db, org.id);
  };
}
