import { InvalidArgumentError, type Repository, type User } from "@kiln/domain";
import { type Db, orgs, repositories, users } from "@kiln/storage";
import { seeAllViewer } from "../access/actor.js";
import type { DeletionGuard } from "../users/user-service.js";

/** A viewer that sees every repository, for housekeeping queries. */
const SEE_ALL = seeAllViewer();

/** Deletes repositories in two halves (provided by the repository service): rows in a transaction, files after. */
export interface RepositoryRemover {
  /** Deletes the repository's rows and releases its usage in `trx`. */
  deleteRows(trx: Db, repo: Repository): Promise<void>;
  /** Removes its directory once the rows are gone for good. */
  removeFiles(repo: Repository): Promise<void>;
}

/**
 * The guard on deleting a user (API rule 17, docs/decisions.md, "guarded against abuse"): a user who still
 * owns repositories, or is the last owner of an organization, is refused with 422 unless `purge`
 * is set; with `purge`, their repositories and the organizations they alone own (with those
 * organizations' repositories) are deleted in the deletion's transaction, so a crash leaves
 * either everything or nothing; the git directories are removed after it committed.
 */
export function ownershipGuard(remover: RepositoryRemover): DeletionGuard {
  return async (user: User, { purge }, trx) => {
    const owned = await repositories.countOwnedRepositories(trx, user.id);
    const soleOwned = await orgs.soleOwnedOrgs(trx, user.id);
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
      return undefined;
    }
    const removed: Repository[] = [];
    for (const owner of [user, ...soleOwned]) {
      for (;;) {
        const batch = await repositories.listVisibleRepositories(trx, { ownerId: owner.id }, SEE_ALL, {
          page: 1,
          limit: 50,
        });
        if (batch.items.length === 0) break;
        for (const repo of batch.items) {
          await remover.deleteRows(trx, repo);
          removed.push(repo);
        }
      }
    }
    for (const org of soleOwned) await users.deleteUser(trx, org.id);
    return async () => {
      for (const repo of removed) await remover.removeFiles(repo);
    };
  };
}
