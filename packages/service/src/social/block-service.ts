import { type Paged, type PageRequest, PermissionDeniedError, type User } from "@kiln/domain";
import { type BlockedUserEntry, blocks, type Db } from "@kiln/storage";
import type { ServiceContext } from "../context.js";

/** Forgejo's ErrBlockedByUser, answered 403 wherever a blocked user tries to act. */
export const BLOCKED_MESSAGE = "user is blocked by the poster or repository owner";

/**
 * The one check every operation a block forbids makes (Forgejo's IsBlockedMultiple): when any
 * of `blockerIds` (a repository's owner, an issue's poster, an account) blocks `doerId`, the
 * operation is refused with Forgejo's 403. Takes the handle of the caller's transaction if any.
 */
export async function assertNotBlocked(db: Db, blockerIds: readonly number[], doerId: number): Promise<void> {
  if (await blocks.isBlockedByAny(db, blockerIds, doerId)) throw new PermissionDeniedError(BLOCKED_MESSAGE);
}

/**
 * The rule for drawing someone into shared work (Forgejo's AddCollaborator, which Kiln applies to
 * teams too): refused with Forgejo's 403 when `userId` and any of `partyIds` (the repository's
 * owner or the organization, and the doer) block each other, either way.
 */
export async function assertNoBlockBetween(
  db: Db,
  partyIds: readonly number[],
  userId: number,
): Promise<void> {
  await assertNotBlocked(db, partyIds, userId);
  for (const id of new Set(partyIds)) await assertNotBlocked(db, [userId], id);
}

/**
 * Forgejo's UserCanBeAssigned for the users a change would newly assign: none may be blocked by
 * the repository's owner or the poster, and none may block the doer (403 otherwise).
 */
export async function assertAssignable(
  db: Db,
  blockerIds: readonly number[],
  doerId: number,
  assigneeIds: readonly number[],
): Promise<void> {
  for (const id of assigneeIds) {
    await assertNotBlocked(db, blockerIds, id);
    await assertNotBlocked(db, [id], doerId);
  }
}

/**
 * Blocking users (Forgejo's services/user/block.go). A user or an organization (through its
 * owners) blocks an account: the follows between them, the blocked user's watches of the
 * blocker's repositories, the blocked user's collaborations on them and pending transfers
 * between the two go in the block's transaction. Blocking oneself or blocking twice changes
 * nothing (Forgejo answers 204 for both); unblocking someone not blocked likewise.
 */
export class BlockService {
  constructor(private readonly ctx: ServiceContext) {}

  /** `blocker` blocks `target`. */
  async block(blocker: User, target: User): Promise<void> {
    if (blocker.id === target.id) return;
    await this.ctx.db
      .transaction()
      .execute((trx) => blocks.insertBlock(trx, blocker.id, target.id, new Date()));
  }

  /** `blocker` no longer blocks `target`. */
  async unblock(blocker: User, target: User): Promise<void> {
    await blocks.deleteBlock(this.ctx.db, blocker.id, target.id);
  }

  /** The accounts `blocker` blocks, most recent first. */
  list(blocker: User, page: PageRequest): Promise<Paged<BlockedUserEntry>> {
    return blocks.listBlocked(this.ctx.db, blocker.id, page);
  }

  /** Refuses `doerId` when one of `blockerIds` blocks it (see {@link assertNotBlocked}). */
  assertNotBlocked(blockerIds: readonly number[], doerId: number): Promise<void> {
    return assertNotBlocked(this.ctx.db, blockerIds, doerId);
  }
}
