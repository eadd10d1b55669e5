import type { Paged, PageRequest, Repository, User } from "@kiln/domain";
import { social } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { type Actor, signedInViewer, viewerOf } from "../access/actor.js";
import type { ServiceContext } from "../context.js";
import { assertNotBlocked } from "./block-service.js";

/**
 * Stars on repositories (Forgejo's models/repo/star.go). The repository's and the user's star
 * counters are recounted in the transaction of each change.
 */
export class StarService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Whether the caller starred the repository. */
  async isStarred(repo: RepoAccess): Promise<boolean> {
    return social.isStarred(this.ctx.db, signedInViewer(repo.actor).id, repo.repo.id);
  }

  /**
   * Stars (`on`) or unstars the repository for the caller; doing it twice changes nothing. A user
   * the owner blocks may not star (403).
   */
  async set(repo: RepoAccess, on: boolean): Promise<void> {
    const viewer = signedInViewer(repo.actor);
    if (on) await assertNotBlocked(this.ctx.db, [repo.repo.ownerId], viewer.id);
    await this.ctx.db
      .transaction()
      .execute((trx) => social.setStar(trx, viewer.id, repo.repo.id, on, new Date()));
  }

  /** The users who starred the repository whom the caller may see. */
  stargazers(repo: RepoAccess, page: PageRequest): Promise<Paged<User>> {
    return social.listMarkers(this.ctx.db, "star", repo.repo.id, viewerOf(repo.actor), page);
  }

  /** The repositories `user` starred that the actor may see (another's private ones left out). */
  starred(actor: Actor, user: User, page: PageRequest): Promise<Paged<Repository>> {
    return social.listMarkedRepos(this.ctx.db, "star", user.id, viewerOf(actor), page);
  }
}
