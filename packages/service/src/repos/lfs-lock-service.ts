import {
  BadRequestError,
  InvalidArgumentError,
  NotFoundError,
  type Repository,
  type User,
} from "@kiln/domain";
import { type HeldLock, type LfsLock, lfsLocks } from "@kiln/storage";
import type { RepoPermission } from "../access/repo-permission.js";
import { requireLockRemoval } from "../access/repo-rules.js";
import type { ServiceContext } from "../context.js";

/** The longest lock path accepted, in bytes (Linux's PATH_MAX). */
export const MAX_LOCK_PATH_BYTES = 4096;

/** What `GET …/locks` may ask for (the Git LFS locking API's query). */
export interface LockQuery {
  readonly path?: string;
  readonly id?: string;
  readonly cursor?: string;
  readonly limit?: number;
}

/** One page of locks, and the cursor of the next page when there is one. */
export interface LockPage {
  readonly locks: readonly LfsLock[];
  readonly nextCursor?: string;
}

/** The pusher's view of one page of locks: its own, and everyone else's. */
export interface LockVerification {
  readonly ours: readonly LfsLock[];
  readonly theirs: readonly LfsLock[];
  readonly nextCursor?: string;
}

/**
 * Forgejo's `util.PathJoinRel`: a repository-relative path with empty, `.` and `..` segments
 * resolved (never above the root), so `./a//b` and `a/b` name the same lock.
 */
export function cleanLockPath(path: string): string {
  const segments: string[] = [];
  for (const segment of path.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(segment);
  }
  return segments.join("/");
}

/**
 * Git LFS file locks (Forgejo's models/git/lfs_lock.go and services/lfs/locks.go). The caller
 * decides access with the access module first (read to list, write to lock, verify and unlock);
 * forcing the removal of another user's lock needs the repository's admin permission. Pages are
 * ordered by id and bounded by `[server] LFS_LOCKS_PAGING_NUM`; the cursor is the last id seen.
 */
export class LfsLockService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Locks `path` for `user`, or answers the lock that already holds it (`created: false`). */
  async create(repo: Repository, user: User, path: string): Promise<{ created: boolean; lock: LfsLock }> {
    const clean = cleanLockPath(path);
    if (clean === "") throw new InvalidArgumentError("path is required");
    if (Buffer.byteLength(clean) > MAX_LOCK_PATH_BYTES || clean.includes("\u0000")) {
      throw new InvalidArgumentError(`path must be at most ${MAX_LOCK_PATH_BYTES} bytes, without NUL`);
    }
    // Every push reads the locks others hold: a full repository takes no new path. Concurrent
    // requests may pass this check together, so the bound can be passed by as many.
    const max = this.ctx.settings.lfs.maxLocks;
    if ((await lfsLocks.countLocks(this.ctx.db, repo.id)) >= max) {
      const holder = await lfsLocks.findLockByPath(this.ctx.db, repo.id, clean);
      if (holder) return { created: false, lock: holder };
      throw new InvalidArgumentError(`a repository holds at most ${max} locks; unlock some first`);
    }
    // The unique index settles races; a lock released between the insert and the read is retried.
    for (let attempt = 0; attempt < 3; attempt++) {
      const { created, lock } = await lfsLocks.createLock(this.ctx.db, repo.id, user.id, clean);
      if (lock) return { created, lock };
    }
    throw new BadRequestError("the path's lock changed while it was being taken; try again");
  }

  /** A page of the repository's locks, or the lock with the given id and/or path. */
  async list(repo: Repository, query: LockQuery): Promise<LockPage> {
    if (query.id !== undefined && query.id !== "") {
      const id = parseId(query.id, "id");
      const lock = await lfsLocks.findLockById(this.ctx.db, repo.id, id);
      const path = query.path ? cleanLockPath(query.path).toLowerCase() : undefined;
      return { locks: lock && (path === undefined || lock.path.toLowerCase() === path) ? [lock] : [] };
    }
    if (query.path !== undefined && query.path !== "") {
      const lock = await lfsLocks.findLockByPath(this.ctx.db, repo.id, cleanLockPath(query.path));
      return { locks: lock ? [lock] : [] };
    }
    return this.page(repo, query.cursor, query.limit);
  }

  /** A page of the repository's locks split into the user's own and everyone else's. */
  async verify(repo: Repository, user: User, cursor?: string, limit?: number): Promise<LockVerification> {
    const { locks, nextCursor } = await this.page(repo, cursor, limit);
    return {
      ours: locks.filter((lock) => lock.ownerId === user.id),
      theirs: locks.filter((lock) => lock.ownerId !== user.id),
      ...(nextCursor ? { nextCursor } : {}),
    };
  }

  /**
   * Removes a lock: its owner may, and with `force` a repository admin may remove anyone's.
   * NotFound for a lock this repository does not have (or no longer has).
   */
  async unlock(
    repo: Repository,
    user: User,
    permission: RepoPermission,
    id: string,
    force: boolean,
  ): Promise<LfsLock> {
    const lock = await lfsLocks.findLockById(this.ctx.db, repo.id, parseId(id, "lock id"));
    if (!lock) throw new NotFoundError("lock does not exist");
    requireLockRemoval(lock, user, permission, force);
    if (!(await lfsLocks.deleteLock(this.ctx.db, repo.id, lock.id)))
      throw new NotFoundError("lock does not exist");
    return lock;
  }

  /** Locks held by anyone but `userId`, which a push by that user may not change (none with LFS off). */
  async heldByOthers(repo: Repository, userId: number): Promise<HeldLock[]> {
    if (!this.ctx.settings.lfs.enabled) return [];
    return lfsLocks.locksHeldByOthers(this.ctx.db, repo.id, userId);
  }

  private async page(
    repo: Repository,
    cursor: string | undefined,
    limit: number | undefined,
  ): Promise<LockPage> {
    const max = this.ctx.settings.lfs.locksPagingNum;
    const size = limit !== undefined && Number.isSafeInteger(limit) && limit > 0 ? Math.min(limit, max) : max;
    const afterId = cursor === undefined || cursor === "" ? 0 : parseId(cursor, "cursor");
    const rows = await lfsLocks.listLocks(this.ctx.db, repo.id, { afterId, limit: size });
    const locks = rows.slice(0, size);
    const last = locks.at(-1);
    return rows.length > size && last ? { locks, nextCursor: String(last.id) } : { locks };
  }
}

function parseId(text: string, what: string): number {
  const id = /^\d{1,15}$/.test(text) ? Number(text) : Number.NaN;
  if (!Number.isSafeInteger(id))
    throw new BadRequestError(`bad request : invalid ${what} ${JSON.stringify(text.slice(0, 40))}`);
  return id;
}
