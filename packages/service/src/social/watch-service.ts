import type { Paged, PageRequest, Repository, User } from "@kiln/domain";
import { social, WatchMode } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { type Actor, signedInViewer, viewerOf } from "../access/actor.js";
import type { ServiceContext } from "../context.js";
import { assertNotBlocked } from "./block-service.js";

/** A user's watch of a repository as the API shows it. */
export interface WatchState {
  readonly watching: boolean;
  readonly createdAt: Date | null;
}

/**
 * Watching repositories (Forgejo's models/repo/watch.go): a watcher is told of new issues and pull
 * requests and their changes. Unwatching an automatic watch leaves a "don't watch" row, so nothing
 * automatic brings it back; unwatching a chosen one removes it. Counters are recounted in the
 * transaction of the change.
 */
export class WatchService {
  constructor(private readonly ctx: ServiceContext) {}

  /** Whether the caller watches the repository (`GET /repos/{o}/{r}/subscription`). */
  async state(repo: RepoAccess): Promise<WatchState> {
    const viewer = signedInViewer(repo.actor);
    const watch = await social.findWatch(this.ctx.db, viewer.id, repo.repo.id);
    const watching =
      watch !== undefined && (watch.mode === WatchMode.normal || watch.mode === WatchMode.auto);
    return { watching, createdAt: watch?.createdAt ?? null };
  }

  /** Watches (`on`) or unwatches the repository for the caller, as Forgejo's WatchRepo. */
  async set(repo: RepoAccess, on: boolean): Promise<void> {
    const viewer = signedInViewer(repo.actor);
    if (on) await assertNotBlocked(this.ctx.db, [repo.repo.ownerId], viewer.id);
    await this.ctx.db.transaction().execute(async (trx) => {
      const current = await social.findWatch(trx, viewer.id, repo.repo.id);
      const mode = on ? WatchMode.normal : current?.mode === WatchMode.auto ? WatchMode.dont : null;
      await social.setWatchMode(trx, viewer.id, repo.repo.id, mode, new Date());
    });
  }

  /** The users watching the repository whom the caller may see. */
  watchers(repo: RepoAccess, page: PageRequest): Promise<Paged<User>> {
    return social.listMarkers(this.ctx.db, "watch", repo.repo.id, viewerOf(repo.actor), page);
  }

  /** The repositories `user` watches that the actor may see (another's private ones left out). */
  watched(actor: Actor, user: User, page: PageRequest): Promise<Paged<Repository>> {
    return social.listMarkedRepos(this.ctx.db, "watch", user.id, viewerOf(actor), page);
  }
}
