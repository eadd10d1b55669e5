import type { Paged, PageRequest, User } from "@kiln/domain";
import { social } from "@kiln/storage";
import { type Actor, signedInViewer, viewerOf } from "../access/actor.js";
import type { ServiceContext } from "../context.js";
import { assertNotBlocked } from "./block-service.js";

/**
 * Following users (Forgejo's models/user/follow.go). Following oneself is quietly nothing, as
 * Forgejo's FollowUser. The counters of both sides are recounted in the change's transaction.
 * Lists show only the accounts the caller may see.
 */
export class FollowService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Whether `user` follows `target`. */
  isFollowing(user: User, target: User): Promise<boolean> {
    return social.isFollowing(this.ctx.db, user.id, target.id);
  }

  /** The caller follows (`on`) or unfollows `target`; not when either blocks the other (403). */
  async set(actor: Actor, target: User, on: boolean): Promise<void> {
    const viewer = signedInViewer(actor);
    if (viewer.id === target.id) return;
    if (on) {
      await assertNotBlocked(this.ctx.db, [target.id], viewer.id);
      await assertNotBlocked(this.ctx.db, [viewer.id], target.id);
    }
    await this.ctx.db
      .transaction()
      .execute((trx) => social.setFollow(trx, viewer.id, target.id, on, new Date()));
  }

  /** The followers of `user` whom the actor may see. */
  followers(actor: Actor, user: User, page: PageRequest): Promise<Paged<User>> {
    return social.listFollows(this.ctx.db, user.id, "followers", viewerOf(actor), page);
  }

  /** The accounts `user` follows whom the actor may see. */
  following(actor: Actor, user: User, page: PageRequest): Promise<Paged<User>> {
    return social.listFollows(this.ctx.db, user.id, "following", viewerOf(actor), page);
  }
}
