import { randomBytes } from "node:crypto";
import {
  BadRequestError,
  InvalidArgumentError,
  isKilnError,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  type Repository,
} from "@kiln/domain";
import { pushMirror } from "@kiln/git";
import { type Db, mirrors, type PushMirrorRow, repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { RepoService } from "../repos/repo-service.js";
import { formatInterval, parseInterval } from "./go-duration.js";
import { KeyedQueue } from "./keyed-queue.js";
import {
  checkMirrorAddress,
  describeFailure,
  openCredentials,
  refuseLocalPath,
  sealCredentials,
  splitAddress,
} from "./mirror-address.js";

/** What adding a push mirror takes (`CreatePushMirrorOption`). */
export interface NewPushMirrorInput {
  readonly remoteAddress: string;
  readonly remoteUsername?: string;
  readonly remotePassword?: string;
  readonly interval?: string;
  readonly syncOnCommit?: boolean;
  readonly useSsh?: boolean;
}

/** Forgejo's message when new push mirrors are refused (Kiln's, like the pull one's). */
export const PUSH_MIRRORS_DISABLED = "the site administrator has disabled the creation of new push mirrors";

/** Pushes to mirrors running at once, instance-wide: each is a `git push` process. */
const PUSH_CONCURRENCY = 2;

/** Push mirrors one repository may have: each push to it can fan out to all of them. */
export const MAX_PUSH_MIRRORS = 20;

/** Letters and digits of Forgejo's util.CryptoRandomString. */
const ALPHABET = "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ";

function randomSuffix(length: number): string {
  const bytes = randomBytes(length);
  return Array.from(bytes, (b) => ALPHABET[b % ALPHABET.length]).join("");
}

/**
 * Push mirrors (Forgejo's routers/api/v1/repo/mirror.go and services/mirror/mirror_push.go): remotes
 * a repository's branches and tags are force-pushed to, with pruning, by interval, after each push
 * (`sync_on_commit`, in the background once the push is recorded) or on request. The address
 * follows migration's rules (checked when added and again, pinned, at each sync); credentials are
 * sealed at rest and reach git only as a header in its environment. A failed push is recorded in
 * `last_error` and `last_update`, never answered as a server error. Pushes run two at a time,
 * instance-wide, a mirror queued once; a repository has at most 20 push mirrors.
 */
export class PushMirrorService {
  /** Pushes queued or running, by mirror id: two at a time, a mirror queued once. */
  private readonly queue = new KeyedQueue<number, PushMirrorRow | undefined>(PUSH_CONCURRENCY);
  /** Syncs on commit started in the background, from the look-up of the mirrors on. */
  private readonly background = new Set<Promise<unknown>>();

  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
  ) {
    repos.onPushed((repo) => this.syncOnCommit(repo));
  }

  /** The repository's push mirrors, a page at a time (400 when mirrors are off, as Forgejo). */
  async list(repo: Repository, page: PageRequest): Promise<Paged<PushMirrorRow>> {
    this.checkEnabled();
    return mirrors.listPushMirrors(this.ctx.db, repo.id, page);
  }

  /** One push mirror by its remote name (404 when there is none). */
  async get(repo: Repository, name: string): Promise<PushMirrorRow> {
    this.checkEnabled();
    const row = await mirrors.findPushMirror(this.ctx.db, repo.id, name);
    if (!row) throw new NotFoundError();
    return row;
  }

  /**
   * Adds a push mirror: refused while new mirrors are (403), 400 for a bad interval, SSH (Kiln
   * serves and pushes over HTTP only) or an address migration's rules refuse. Nothing is pushed yet.
   */
  async add(repo: Repository, input: NewPushMirrorInput): Promise<PushMirrorRow> {
    this.checkEnabled();
    const { repository, mirror } = this.ctx.settings;
    if (repository.disableMirrors || mirror.disableNewPush)
      throw new PermissionDeniedError(PUSH_MIRRORS_DISABLED);
    const intervalMs = parseInterval(input.interval ?? "");
    if (intervalMs === undefined)
      throw new BadRequestError(`time: invalid duration "${input.interval ?? ""}"`);
    if (intervalMs !== 0 && intervalMs < mirror.minInterval) {
      throw new BadRequestError(
        `interval ${formatInterval(intervalMs)} is less than the minimum interval ${formatInterval(mirror.minInterval)}`,
      );
    }
    if (input.useSsh) throw new BadRequestError("SSH authentication not available.");
    const tooMany = () =>
      new InvalidArgumentError(`a repository can have at most ${MAX_PUSH_MIRRORS} push mirrors`);
    const count = async (db: Db) => (await mirrors.listPushMirrors(db, repo.id, { page: 1, limit: 1 })).total;
    // Checked early to spare the address lookup, and again under the lock below.
    if ((await count(this.ctx.db)) >= MAX_PUSH_MIRRORS) throw tooMany();
    const { address, auth } = await this.asBadRequest(async () => {
      refuseLocalPath(input.remoteAddress);
      const split = splitAddress(input.remoteAddress, {
        username: input.remoteUsername ?? "",
        password: input.remotePassword ?? "",
      });
      await checkMirrorAddress(this.ctx.settings, split.address);
      return split;
    });
    // Count and insert with the repository's row locked, so two racing additions cannot pass the
    // cap together.
    return this.ctx.db.transaction().execute(async (trx) => {
      if (!(await repositories.lockRepository(trx, repo.id))) throw new NotFoundError();
      if ((await count(trx)) >= MAX_PUSH_MIRRORS) throw tooMany();
      return mirrors.insertPushMirror(trx, {
        repoId: repo.id,
        remoteName: `remote_mirror_${randomSuffix(10)}`,
        remoteAddress: address,
        credentials: sealCredentials(this.ctx.settings, auth),
        intervalMs,
        syncOnCommit: input.syncOnCommit ?? false,
      });
    });
  }

  /** Removes a push mirror by its remote name (404 when there is none); the remote keeps what it has. */
  async delete(repo: Repository, name: string): Promise<void> {
    this.checkEnabled();
    if (!(await mirrors.deletePushMirror(this.ctx.db, repo.id, name))) throw new NotFoundError();
  }

  /** `POST …/push_mirrors-sync`: pushes to every push mirror of the repository now, one after the other. */
  async syncAll(repo: Repository): Promise<void> {
    this.checkEnabled();
    for (const row of await mirrors.allPushMirrors(this.ctx.db, repo.id)) await this.sync(row.id);
  }

  /**
   * Pushes to one push mirror once one of the instance's push slots is free (joining a push to it
   * queued or going on); the row as updated.
   */
  sync(id: number, signal?: AbortSignal): Promise<PushMirrorRow | undefined> {
    return this.queue.run(id, () => this.runSync(id, signal));
  }

  /** Push mirrors due for their periodic sync. */
  async due(limit: number): Promise<PushMirrorRow[]> {
    return mirrors.duePushMirrors(this.ctx.db, new Date(), limit);
  }

  /** Waits for every push going on (tests, shutdown). */
  async idle(): Promise<void> {
    while (this.queue.size > 0 || this.background.size > 0) {
      await Promise.allSettled([this.queue.idle(), ...this.background]);
    }
  }

  /** After a push to `repo`: its `sync_on_commit` mirrors are queued for a push in the background. */
  private syncOnCommit(repo: Repository): void {
    if (!this.ctx.settings.mirror.enabled) return;
    const work: Promise<unknown> = mirrors
      .syncOnCommitMirrors(this.ctx.db, repo.id)
      .then((rows) => Promise.all(rows.map((row) => this.sync(row.id))))
      .catch((error: unknown) =>
        this.ctx.logger.error(
          { repo: repo.id, err: describeFailure(error) },
          "mirror: sync on commit failed",
        ),
      )
      .finally(() => this.background.delete(work));
    this.background.add(work);
  }

  private checkEnabled(): void {
    if (!this.ctx.settings.mirror.enabled) throw new BadRequestError("Mirror feature is disabled");
  }

  /** Forgejo answers every refused push mirror address with 400. */
  private async asBadRequest<T>(op: () => Promise<T>): Promise<T> {
    try {
      return await op();
    } catch (error) {
      if (isKilnError(error) && error.kind === "invalid_argument") throw new BadRequestError(error.message);
      throw error;
    }
  }

  private async runSync(id: number, signal?: AbortSignal): Promise<PushMirrorRow | undefined> {
    const row = await mirrors.findPushMirrorById(this.ctx.db, id);
    if (!row) return undefined;
    const repo = await repositories.findRepositoryById(this.ctx.db, row.repoId);
    if (!repo) return undefined;
    let lastError = "";
    try {
      const remote = await checkMirrorAddress(this.ctx.settings, row.remoteAddress);
      const auth = openCredentials(this.ctx.settings, row.credentials);
      await pushMirror(await this.repos.git(repo), {
        remote,
        ...(auth ? { auth } : {}),
        ...(signal ? { signal } : {}),
      });
    } catch (error) {
      lastError = describeFailure(error);
      this.ctx.logger.warn(
        { repo: `${repo.ownerName}/${repo.name}`, remote: row.remoteName, err: lastError },
        "mirror: the push mirror could not be synced",
      );
    }
    return mirrors.updatePushMirror(this.ctx.db, id, { lastUpdateAt: new Date(), lastError });
  }
}
