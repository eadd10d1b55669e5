import { type BlobStore, BlobTooLargeError, type StoredBlob, withStoredBlob } from "@kiln/blobs";
import {
  type ActionArtifact,
  AlreadyExistsError,
  NotFoundError,
  type Paged,
  type PageRequest,
  PayloadTooLargeError,
  type QuotaUsedArtifact,
  type Repository,
  type User,
} from "@kiln/domain";
import { artifacts, repositories } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { BlobKind } from "../cron/blob-sweep.js";
import type { QuotaLedger } from "../quota/ledger.js";
import type { UsedItemScope } from "../quota/used-items.js";
import { checkArtifactName, zipOnly } from "./artifact-input.js";

const DAY_MS = 86_400_000;

/** What an upload names: the run, the artifact's name, and optionally its retention and commit. */
export interface ArtifactUpload {
  readonly runId: number;
  readonly name: string;
  /** Days to keep it; absent or 0: `[actions] ARTIFACT_RETENTION_DAYS`, which is also the most. */
  readonly retentionDays?: number;
  readonly headSha?: string;
}

/** An artifact opened for download: its record and its bytes. */
export interface OpenedArtifact {
  readonly artifact: ActionArtifact;
  readonly body: ReadableStream<Uint8Array>;
}

/**
 * Actions artifacts (Gitea 1.23's artifacts API; Kiln runs no workflows, so uploads come through
 * Kiln's own route): the zip a run of a repository uploaded under a name, streamed into the
 * artifacts' blob store and recorded with its size in the owner's quota ledger in one transaction.
 * Usage is the stored (compressed) size, counted against the repository's owner. Past its
 * `expires_at` an artifact is gone for every reader at once; the expiry task removes the row and
 * releases its usage. Callers decide access (the access module) before calling.
 */
export class ArtifactService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly ledger: QuotaLedger,
    /** Where artifacts' bytes live (`[actions.artifacts] PATH`). */
    readonly blobs: BlobStore,
  ) {
    // An artifact counts against its repository's owner: it moves with a transfer, goes with a deletion.
    ledger.registerRepositoryAssets((db, repoId) => artifacts.repositoryArtifactUsage(db, repoId));
  }

  /**
   * Stores an uploaded zip as an artifact of `repo`'s run: 422 for a bad name or retention or a
   * body that is not a zip, 409 when the run has an artifact of that name, 413 past
   * `[actions] ARTIFACT_MAX_SIZE`. A refused or broken upload leaves no row, no usage and no
   * file (bytes stored before a refusal are removed unless another record holds the same bytes).
   */
  async upload(
    repo: Repository,
    uploader: User,
    input: ArtifactUpload,
    body: AsyncIterable<Uint8Array>,
    signal?: AbortSignal,
  ): Promise<ActionArtifact> {
    checkArtifactName(input.name);
    const { artifactRetentionDays: maxDays, artifactMaxSize } = this.ctx.settings.actions;
    const days = input.retentionDays ? Math.min(input.retentionDays, maxDays) : maxDays;
    const headSha = input.headSha ?? "";
    const now = new Date();
    // Refused before a byte is read when the name is taken (the insert decides in the end).
    const taken = { name: input.name, runId: input.runId };
    if ((await artifacts.listArtifacts(this.ctx.db, repo.id, taken, { page: 1, limit: 1 }, now)).total > 0)
      throw exists(input.name);
    const options = {
      maxBytes: artifactMaxSize,
      referenced: (keys: readonly string[]) => artifacts.referencedArtifactBlobs(this.ctx.db, keys),
      ...(signal ? { signal } : {}),
    };
    try {
      // A refusal after the bytes arrived (the name taken meanwhile) removes them again.
      return await withStoredBlob(this.blobs, zipOnly(body), options, (stored) =>
        this.record(repo, input, uploader, stored, days, headSha),
      );
    } catch (err) {
      if (err instanceof BlobTooLargeError)
        throw new PayloadTooLargeError(
          `the artifact is larger than [actions] ARTIFACT_MAX_SIZE: at most ${artifactMaxSize} bytes may be uploaded`,
        );
      throw err;
    }
  }

  private record(
    repo: Repository,
    input: ArtifactUpload,
    uploader: User,
    stored: StoredBlob,
    days: number,
    headSha: string,
  ): Promise<ActionArtifact> {
    return this.ctx.db.transaction().execute(async (trx) => {
      // Locked so that a transfer moving this repository's usage sees this artifact or none of it.
      const locked = await repositories.lockRepository(trx, repo.id);
      if (!locked) throw new NotFoundError();
      const at = new Date();
      // An expired artifact of the same run and name is gone already: this one takes its place.
      const gone = await artifacts.deleteExpiredByName(trx, repo.id, input.runId, input.name, at);
      const row = await artifacts.insertArtifact(trx, {
        repoId: repo.id,
        runId: input.runId,
        name: input.name,
        uploaderId: uploader.id,
        headSha,
        blobKey: stored.key,
        size: stored.size,
        createdAt: at,
        updatedAt: at,
        expiresAt: new Date(at.getTime() + days * DAY_MS),
      });
      if (!row) throw exists(input.name);
      await this.ledger.record(trx, locked.ownerId, { artifacts: stored.size - gone });
      return row;
    });
  }

  /** A page of the repository's live artifacts (optionally by name and run), oldest first. */
  list(
    repo: Repository,
    filter: artifacts.ArtifactFilter,
    page: PageRequest,
  ): Promise<Paged<ActionArtifact>> {
    return artifacts.listArtifacts(this.ctx.db, repo.id, filter, page, new Date());
  }

  /** A live artifact of the repository; 404 otherwise (expired ones included). */
  async get(repo: Repository, id: number): Promise<ActionArtifact> {
    const found = await artifacts.findArtifact(this.ctx.db, repo.id, id, new Date());
    if (!found) throw new NotFoundError("artifact not found");
    return found;
  }

  /** A live artifact and its bytes, streamed from the blob store. */
  async open(repo: Repository, id: number): Promise<OpenedArtifact> {
    const found = await artifacts.findArtifact(this.ctx.db, repo.id, id, new Date());
    if (!found) throw new NotFoundError("artifact not found");
    return { artifact: found, body: await this.blobs.open(found.blobKey) };
  }

  /** Deletes a live artifact and releases its usage, in one transaction; 404 when there is none. */
  async delete(repo: Repository, id: number): Promise<void> {
    await this.get(repo, id);
    await this.ctx.db.transaction().execute(async (trx) => {
      const locked = await repositories.lockRepository(trx, repo.id);
      if (!locked) throw new NotFoundError();
      const deleted = await artifacts.deleteArtifact(trx, repo.id, id);
      if (!deleted) throw new NotFoundError("artifact not found");
      await this.ledger.record(trx, locked.ownerId, { artifacts: -deleted.size });
    });
  }

  /**
   * `/user/quota/artifacts`: the live artifacts counting against an owner, largest first (for a
   * `public-only` token, those of public repositories only).
   */
  async usedItems(
    ownerId: number,
    page: PageRequest,
    scope?: UsedItemScope,
  ): Promise<Paged<QuotaUsedArtifact>> {
    const publicOnly = scope?.publicOnly ?? false;
    const used = await artifacts.listUsedArtifacts(this.ctx.db, ownerId, page, new Date(), publicOnly);
    return {
      total: used.total,
      items: used.items.map((a) => ({
        name: a.name,
        size: a.size,
        htmlPath: `${a.ownerName}/${a.repoName}/actions/runs/${a.runId}`,
      })),
    };
  }

  /**
   * Removes every artifact expired by `now`, a repository at a time, releasing its usage in the
   * transaction that deletes it. Resolves with how many went and the bytes they held.
   */
  async expire(now = new Date(), signal?: AbortSignal): Promise<{ count: number; bytes: number }> {
    const total = { count: 0, bytes: 0 };
    for (;;) {
      const repos = await artifacts.reposWithExpiredArtifacts(this.ctx.db, now, 100);
      if (repos.length === 0) return total;
      for (const repoId of repos) {
        if (signal?.aborted) return total;
        await this.ctx.db.transaction().execute(async (trx) => {
          const locked = await repositories.lockRepository(trx, repoId);
          if (!locked) return;
          const gone = await artifacts.deleteExpiredArtifacts(trx, repoId, now, 1000);
          await this.ledger.record(trx, locked.ownerId, { artifacts: -gone.bytes });
          total.count += gone.count;
          total.bytes += gone.bytes;
        });
      }
    }
  }

  /** The artifacts' blob store and what refers to it, for the blob sweep (`sweep_artifacts`) and doctor. */
  blobKind(): BlobKind {
    return {
      name: "artifacts",
      store: this.blobs,
      referenced: (keys) => artifacts.referencedArtifactBlobs(this.ctx.db, keys),
    };
  }
}

function exists(name: string): AlreadyExistsError {
  return new AlreadyExistsError(`artifact already exists [name: ${name}]`);
}
