import { NotFoundError } from "@kiln/domain";
import { wikiRepoName } from "@kiln/git";
import { adminRepos, lfsObjects, repositories, wikis } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { BlobKind } from "../cron/blob-sweep.js";
import type { RepoService } from "../repos/repo-service.js";
import type { WikiService } from "../wiki/wiki-service.js";
import { collectLeftovers, type LeftoverFinding } from "./disk-leftovers.js";

/** A repository whose stored size (what the quota ledger counts) differs from what it holds. */
export interface RepoSizeDrift {
  readonly repoId: number;
  /** `owner/name`. */
  readonly repo: string;
  /** `git`: its directory on disk; `lfs`: the LFS objects it references; `wiki`: its wiki's directory. */
  readonly size: "git" | "lfs" | "wiki";
  readonly stored: number;
  readonly measured: number;
}

/** The LFS store measured against what the repositories reference. */
export interface LfsStoreCheck {
  /** The distinct objects the repositories reference: what the store must hold. */
  readonly referenced: { readonly objects: number; readonly bytes: number };
  /** The objects in the store (partial uploads are leftovers, not objects). */
  readonly onDisk: { readonly objects: number; readonly bytes: number };
  /** Objects in the store no repository references: counted against nobody. */
  readonly unreferenced: { readonly objects: number; readonly bytes: number };
  /** Bytes the repositories reference that the store does not hold. */
  readonly missingBytes: number;
}

/** How to run the disk check. */
export interface DiskCheckOptions {
  /** Remove stale leftovers and write the measured sizes (recording the change of usage). */
  readonly fix: boolean;
  /** How long a leftover must be untouched before it counts as stale. */
  readonly graceMs: number;
  readonly signal?: AbortSignal;
  /** Called after each batch of repositories with those measured so far and the total. */
  readonly onProgress?: (done: number, total: number) => void;
  readonly onLeftover?: (finding: LeftoverFinding) => void;
  /** Each drift as found (with `fix`, after it was corrected). */
  readonly onDrift?: (drift: RepoSizeDrift) => void;
  /** A repository whose directory could not be read (missing on disk, unreadable). */
  readonly onUnreadable?: (repo: string, reason: string) => void;
}

/** What a disk check found. */
export interface DiskReport {
  readonly leftovers: readonly LeftoverFinding[];
  readonly repositories: number;
  readonly drifts: readonly RepoSizeDrift[];
  readonly unreadable: number;
  readonly lfs: LfsStoreCheck;
  readonly fixed: boolean;
}

/**
 * The part of `kiln doctor quota` that looks at the disk, which the ledger check cannot see:
 * leftovers of pushes and uploads cut short, repositories whose stored git, LFS or wiki size
 * differs from what they hold (a push that landed while its request failed was never measured),
 * and the LFS store against the objects the repositories reference. Leftovers go first, so the
 * sizes are measured without them.
 */
export class DiskDoctor {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly wikis: WikiService,
    private readonly blobKinds: () => readonly BlobKind[],
  ) {}

  async run(options: DiskCheckOptions): Promise<DiskReport> {
    const leftovers = await collectLeftovers(
      { repos: this.repos.store, lfs: this.repos.lfs, blobKinds: this.blobKinds },
      options,
    );
    for (const finding of leftovers) options.onLeftover?.(finding);
    const drifts: RepoSizeDrift[] = [];
    let checked = 0;
    let unreadable = 0;
    let done = 0;
    let total = await adminRepos.countRepositories(this.ctx.db);
    options.onProgress?.(done, total);
    for (let after = 0; !options.signal?.aborted; ) {
      const ids = await adminRepos.repositoryIdsAfter(this.ctx.db, after, 100);
      if (ids.length === 0) break;
      after = ids.at(-1) ?? after;
      for (const id of ids) {
        if (options.signal?.aborted) break;
        const found = await this.checkRepository(id, options.fix).catch((error: unknown) => {
          if (error instanceof NotFoundError) return undefined;
          throw error;
        });
        if (!found) continue; // deleted meanwhile
        if ("problem" in found) {
          unreadable++;
          options.onUnreadable?.(found.repo, found.problem);
          continue;
        }
        checked++;
        for (const drift of found.drifts) {
          drifts.push(drift);
          options.onDrift?.(drift);
        }
      }
      done += ids.length;
      total = Math.max(total, done);
      options.onProgress?.(done, total);
    }
    return {
      leftovers,
      repositories: checked,
      drifts,
      unreadable,
      lfs: await this.checkLfsStore(),
      fixed: options.fix,
    };
  }

  /**
   * The sizes of one repository that differ from disk (corrected with `fix`), or why it could not
   * be measured; undefined when it is gone.
   */
  private async checkRepository(
    repoId: number,
    fix: boolean,
  ): Promise<{ repo: string; drifts: RepoSizeDrift[] } | { repo: string; problem: string } | undefined> {
    const repo = await repositories.findRepositoryById(this.ctx.db, repoId);
    if (!repo) return undefined;
    const name = `${repo.ownerName}/${repo.name}`;
    if (!(await this.repos.store.exists(repo.ownerName, repo.name)))
      return { repo: name, problem: "no directory on disk" };
    const gitSize = await this.repos.store.size(repo.ownerName, repo.name).catch((e: Error) => e);
    if (gitSize instanceof Error) return { repo: name, problem: gitSize.message };
    const drifts: RepoSizeDrift[] = [];
    if (gitSize !== repo.gitSize) {
      const measured = fix ? (await this.repos.refreshSize(repoId)).gitSize : gitSize;
      drifts.push({ repoId, repo: name, size: "git", stored: repo.gitSize, measured });
    }
    const lfsSize = await lfsObjects.sumLfsSize(this.ctx.db, repoId);
    if (lfsSize !== repo.lfsSize) {
      const measured = fix ? (await this.repos.recountLfsSize(repoId)).after : lfsSize;
      drifts.push({ repoId, repo: name, size: "lfs", stored: repo.lfsSize, measured });
    }
    const wiki = wikiRepoName(repo.name);
    const wikiSize = (await this.repos.store.exists(repo.ownerName, wiki))
      ? await this.repos.store.size(repo.ownerName, wiki)
      : 0;
    const wikiStored = await wikis.wikiSize(this.ctx.db, repoId);
    if (wikiSize !== wikiStored) {
      if (fix) await this.wikis.refreshSize(repoId);
      const measured = fix ? await wikis.wikiSize(this.ctx.db, repoId) : wikiSize;
      drifts.push({ repoId, repo: name, size: "wiki", stored: wikiStored, measured });
    }
    return { repo: name, drifts };
  }

  /** Walks the LFS store's objects, asking in batches which ones some repository references. */
  private async checkLfsStore(): Promise<LfsStoreCheck> {
    const onDisk = { objects: 0, bytes: 0 };
    const unreferenced = { objects: 0, bytes: 0 };
    let batch: { oid: string; size: number }[] = [];
    const flush = async () => {
      const wanted = await lfsObjects.referencedLfsOids(
        this.ctx.db,
        batch.map((o) => o.oid),
      );
      for (const object of batch) {
        if (wanted.has(object.oid)) continue;
        unreferenced.objects++;
        unreferenced.bytes += object.size;
      }
      batch = [];
    };
    for await (const object of this.repos.lfs.objects()) {
      onDisk.objects++;
      onDisk.bytes += object.size;
      batch.push(object);
      if (batch.length >= 500) await flush();
    }
    await flush();
    const referenced = await lfsObjects.referencedLfsTotal(this.ctx.db);
    const held = onDisk.bytes - unreferenced.bytes;
    return { referenced, onDisk, unreferenced, missingBytes: Math.max(0, referenced.bytes - held) };
  }
}
