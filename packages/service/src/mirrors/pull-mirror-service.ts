import {
  BadRequestError,
  InvalidArgumentError,
  NotFoundError,
  PermissionDeniedError,
  type Repository,
} from "@kiln/domain";
import { fetchMirror, type RefUpdate } from "@kiln/git";
import { type Db, type MirrorRow, mirrors, type NewMirror, repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { inRepo } from "../events/event-base.js";
import { describePushes } from "../events/ref-events.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import { checkInterval } from "./go-duration.js";
import {
  checkMirrorAddress,
  describeFailure,
  type MirrorCredentials,
  openCredentials,
  refuseLocalPath,
  sealCredentials,
  splitAddress,
} from "./mirror-address.js";
import { recordMirrorSync } from "./mirror-events.js";

/** What a new pull mirror keeps, checked before anything is cloned. */
export interface PullMirrorPlan {
  readonly address: string;
  readonly auth?: MirrorCredentials;
  readonly intervalMs: number;
}

/** How one sync ended. */
export interface MirrorSyncOutcome {
  readonly ok: boolean;
  /** The failure recorded in `last_error` (empty when it went well). */
  readonly error: string;
  /** How many branches and tags it changed. */
  readonly refs: number;
}

/** The mirror facts a repository's API shape shows. */
export interface PullMirrorView {
  readonly intervalMs: number;
  readonly updatedAt: Date;
  readonly address: string;
}

/** Forgejo's message when new pull mirrors are refused. */
export const PULL_MIRRORS_DISABLED = "the site administrator has disabled the creation of new pull mirrors";

/**
 * Pull mirrors (Forgejo's services/mirror/mirror_pull.go): the mirror row of a repository created
 * by `POST /repos/migrate` with `mirror: true`, its interval, and its syncs. A sync fetches the
 * remote's branches and tags (checked again with migration's address rules, pinned), then, with
 * no transaction open during git, brings the repository's default branch, size and usage up to
 * date and records the sync's events and the mirror's times in one transaction. A failure is
 * recorded in `last_error` and leaves every ref as it was. One sync of a mirror runs at a time.
 */
export class PullMirrorService {
  private readonly running = new Map<number, Promise<MirrorSyncOutcome>>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
  ) {
    // A sync a crash interrupted after its refs moved is recorded as the sync it was.
    repos.journal.register("mirror-sync", async (repo, git, intents, landed) => {
      const row = await mirrors.findMirror(this.ctx.db, repo.id);
      const pushed = await describePushes(git, landed);
      await this.refs.record(repo, landed, null, {
        operation: intents[0]?.operation ?? "",
        kind: "mirror-sync",
        record: (trx) => this.recordSync(trx, repo, row, landed, pushed),
      });
    });
  }

  /** The mirror's times and the sync's events, in the transaction that records the sync. */
  private async recordSync(
    trx: Db,
    repo: Repository,
    row: MirrorRow | undefined,
    updates: readonly RefUpdate[],
    pushed: Awaited<ReturnType<typeof describePushes>>,
  ): Promise<void> {
    if (row) {
      await mirrors.updateMirror(trx, repo.id, {
        updatedAt: new Date(),
        nextUpdateAt: this.nextUpdate(row.intervalMs),
        lastError: "",
      });
    }
    await recordMirrorSync(this.ctx.events, trx, inRepo(repo, repo.ownerId), updates, pushed);
  }

  /** Whether new pull mirrors may be made (`[repository] DISABLE_MIRRORS`, `[mirror] ENABLED`/`DISABLE_NEW_PULL`). */
  checkMayCreate(): void {
    const { repository, mirror } = this.ctx.settings;
    if (repository.disableMirrors || mirror.disableNewPull)
      throw new PermissionDeniedError(PULL_MIRRORS_DISABLED);
  }

  /** Checks what a new pull mirror needs (refusal, address, interval) before anything is made. */
  plan(cloneAddr: string, interval: string | undefined, auth?: Partial<MirrorCredentials>): PullMirrorPlan {
    this.checkMayCreate();
    refuseLocalPath(cloneAddr);
    const { address, auth: credentials } = splitAddress(cloneAddr, auth);
    const intervalMs =
      interval !== undefined && interval !== ""
        ? checkInterval(interval, this.ctx.settings.mirror.minInterval)
        : this.ctx.settings.mirror.defaultInterval;
    return { address, intervalMs, ...(credentials ? { auth: credentials } : {}) };
  }

  /** The mirror row of a repository made from `plan` (inserted with the repository's row). */
  newRow(repoId: number, plan: PullMirrorPlan): NewMirror {
    return {
      repoId,
      remoteAddress: plan.address,
      credentials: sealCredentials(this.ctx.settings, plan.auth),
      intervalMs: plan.intervalMs,
      nextUpdateAt: this.nextUpdate(plan.intervalMs),
    };
  }

  /** The pull mirror facts of the mirrors among `repos`, for their API shape (one query). */
  async viewsOf(repos: readonly Repository[]): Promise<Map<number, PullMirrorView>> {
    const ids = repos.filter((r) => r.isMirror).map((r) => r.id);
    const rows = await mirrors.mirrorsOf(this.ctx.db, ids);
    return new Map(
      [...rows].map(([id, row]) => [
        id,
        { intervalMs: row.intervalMs, updatedAt: row.updatedAt, address: row.remoteAddress },
      ]),
    );
  }

  /** The mirror row of a repository (undefined when it is not a pull mirror). */
  async find(repo: Repository): Promise<MirrorRow | undefined> {
    return mirrors.findMirror(this.ctx.db, repo.id);
  }

  /**
   * `POST /repos/{owner}/{repo}/mirror-sync`: 400 when mirrors are off or the repository is not a
   * mirror (Forgejo's words), else syncs it now (joining a sync going on). A failed sync is not an
   * error of the request: it is recorded in `last_error`.
   */
  async requestSync(repo: Repository): Promise<MirrorSyncOutcome> {
    if (!this.ctx.settings.mirror.enabled) throw new BadRequestError("Mirror feature is disabled");
    if (!(await this.find(repo))) throw new BadRequestError("Repository is not a mirror");
    return this.sync(repo.id);
  }

  /** Syncs a pull mirror now, or joins the sync of it going on. */
  sync(repoId: number, signal?: AbortSignal): Promise<MirrorSyncOutcome> {
    const going = this.running.get(repoId);
    if (going) return going;
    const run = this.runSync(repoId, signal).finally(() => this.running.delete(repoId));
    this.running.set(repoId, run);
    return run;
  }

  /**
   * `PATCH /repos/{owner}/{repo}` with `mirror_interval` / `enable_prune`: validated first (422 for
   * a repository that is not a mirror, a malformed interval, or one under `[mirror] MIN_INTERVAL`),
   * applied by the returned function once the rest of the edit succeeded.
   */
  async prepareEdit(
    repo: Repository,
    input: { readonly interval?: string; readonly enablePrune?: boolean },
  ): Promise<() => Promise<void>> {
    if (input.interval === undefined && input.enablePrune === undefined) return async () => {};
    const row = repo.isMirror ? await this.find(repo) : undefined;
    if (!row) throw new InvalidArgumentError("repo is not a mirror, can not change mirror interval");
    const intervalMs =
      input.interval !== undefined
        ? checkInterval(input.interval, this.ctx.settings.mirror.minInterval)
        : undefined;
    return async () => {
      await mirrors.updateMirror(this.ctx.db, repo.id, {
        ...(intervalMs !== undefined ? { intervalMs, nextUpdateAt: this.nextUpdate(intervalMs) } : {}),
        ...(input.enablePrune !== undefined ? { enablePrune: input.enablePrune } : {}),
      });
    };
  }

  /** Pull mirrors due for their periodic sync. */
  async due(limit: number): Promise<MirrorRow[]> {
    return mirrors.duePullMirrors(this.ctx.db, new Date(), limit);
  }

  /** Moves a mirror's next periodic sync one interval on without syncing it (a run skipped it). */
  async scheduleNext(row: MirrorRow): Promise<void> {
    await mirrors.updateMirror(this.ctx.db, row.repoId, { nextUpdateAt: this.nextUpdate(row.intervalMs) });
  }

  /** A repository by id, for housekeeping (undefined when it was deleted). */
  async repository(repoId: number): Promise<Repository | undefined> {
    return repositories.findRepositoryById(this.ctx.db, repoId);
  }

  /** Waits for every sync going on (tests, shutdown). */
  async idle(): Promise<void> {
    await Promise.allSettled([...this.running.values()]);
  }

  private nextUpdate(intervalMs: number): Date | null {
    return intervalMs > 0 ? new Date(Date.now() + intervalMs) : null;
  }

  private async runSync(repoId: number, signal?: AbortSignal): Promise<MirrorSyncOutcome> {
    const row = await mirrors.findMirror(this.ctx.db, repoId);
    const repo = await repositories.findRepositoryById(this.ctx.db, repoId);
    if (!row || !repo) throw new NotFoundError("mirror does not exist");
    try {
      const remote = await checkMirrorAddress(this.ctx.settings, row.remoteAddress);
      const git = await this.repos.git(repo);
      const auth = openCredentials(this.ctx.settings, row.credentials);
      // The refs that will move are journalled first (kind mirror-sync): a kill after they moved
      // is recorded at start-up, with the sync's events, instead of losing them. Recorded as a
      // push nobody made: default branch, history index, size and usage, push mirrors that sync
      // on commit, and the sync's own events and times in the transaction that claims it.
      let updates: readonly RefUpdate[] = [];
      let pushed: Awaited<ReturnType<typeof describePushes>> = new Map();
      await this.refs.move(repo, null, {
        kind: "mirror-sync",
        move: async (beforeMove) => {
          updates = await fetchMirror(git, {
            remote,
            prune: row.enablePrune,
            ...(auth ? { auth } : {}),
            ...(signal ? { signal } : {}),
            beforeMove,
          });
          if (updates.length > 0) pushed = await describePushes(git, updates);
        },
        updatesOf: () => updates,
        record: (trx) => this.recordSync(trx, repo, row, updates, pushed),
      });
      // A sync that moved nothing still counts as one (the mirror's times).
      if (updates.length === 0)
        await this.ctx.db.transaction().execute((trx) => this.recordSync(trx, repo, row, [], pushed));
      return { ok: true, error: "", refs: updates.length };
    } catch (error) {
      const message = describeFailure(error);
      this.ctx.logger.warn(
        { repo: `${repo.ownerName}/${repo.name}`, err: message },
        "mirror: the pull mirror could not be synced",
      );
      // Forgejo's ScheduleNextUpdate on failure too: a failing mirror waits its interval like any
      // other, instead of staying the most overdue row and being picked first by every run.
      await mirrors.updateMirror(this.ctx.db, repoId, {
        updatedAt: new Date(),
        nextUpdateAt: this.nextUpdate(row.intervalMs),
        lastError: message,
      });
      return { ok: false, error: message, refs: 0 };
    }
  }
}
