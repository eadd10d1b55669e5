import type { Repository } from "@kiln/domain";
import { type Db, quotaUsage, type UsageCounters } from "@kiln/storage";

/** A change to an owner's usage counters, in bytes (negative to release). */
export type UsageDelta = Partial<UsageCounters>;

/**
 * The usage a repository's own stored objects hold besides git and LFS (Actions artifacts, …),
 * read in the caller's transaction: it counts against the repository's owner, so it moves with a
 * transfer and goes with a deletion.
 */
export type RepositoryAssetUsage = (db: Db, repoId: number) => Promise<UsageDelta>;

/** A repository as the ledger sees it; `id` lets it find the objects stored for the repository. */
type RepoState = Pick<Repository, "ownerId" | "isPrivate" | "gitSize" | "lfsSize"> & { readonly id?: number };

/**
 * The quota ledger (decision 7, docs/decisions.md): per-owner counters of each leaf subject, always changed in
 * the transaction that changes the rows they count. Every feature that stores bytes for an owner
 * (repository pushes and deletions, LFS, attachments, packages, artifacts, transfers, visibility
 * changes) records its change through `record`, the one writer of the counters. A transaction
 * that changes several owners' counters must change them in ascending owner id order (as
 * `recordRepositoryChange` does), or concurrent transactions can deadlock on the rows.
 */
export class QuotaLedger {
  private readonly assetSources: RepositoryAssetUsage[] = [];

  /**
   * Adds a kind of object stored for repositories (artifacts, attachments) whose usage
   * {@link recordRepositoryChange} moves or releases with the repository.
   */
  registerRepositoryAssets(source: RepositoryAssetUsage): void {
    this.assetSources.push(source);
  }

  /** Adds `delta` to the owner's counters within the caller's transaction `db`. */
  async record(db: Db, ownerId: number, delta: UsageDelta): Promise<void> {
    await quotaUsage.addUsage(db, ownerId, delta);
  }

  /** The counters a repository contributes to its owner: git size (public or private) and LFS. */
  repositoryUsage(repo: Pick<Repository, "isPrivate" | "gitSize" | "lfsSize">): UsageDelta {
    return repo.isPrivate
      ? { reposPrivate: repo.gitSize, lfs: repo.lfsSize }
      : { reposPublic: repo.gitSize, lfs: repo.lfsSize };
  }

  /**
   * Records a repository changing (size, visibility, owner) from `before` to `after`, or appearing
   * (`before` undefined) or disappearing (`after` undefined), as the difference of the two. When
   * it changes owner or disappears, the objects stored for it (registered with
   * {@link registerRepositoryAssets}; found by `before.id`) move or go too: call it before their
   * rows are deleted.
   */
  async recordRepositoryChange(
    db: Db,
    before: RepoState | undefined,
    after: RepoState | undefined,
  ): Promise<void> {
    const repoId = before?.id;
    const moves = !after || after.ownerId !== before?.ownerId;
    const assets = repoId !== undefined && moves ? await this.repositoryAssets(db, repoId) : {};
    const minus = before ? negate(sum(this.repositoryUsage(before), assets)) : {};
    const plus = after ? sum(this.repositoryUsage(after), assets) : {};
    if (before && after && before.ownerId === after.ownerId) {
      await this.record(db, after.ownerId, sum(minus, plus));
      return;
    }
    // Two owners' counters change: lock their rows in id order, so that two transfers in opposite
    // directions cannot deadlock on each other's rows.
    const changes: [number, UsageDelta][] = [];
    if (before) changes.push([before.ownerId, minus]);
    if (after) changes.push([after.ownerId, plus]);
    changes.sort(([a], [b]) => a - b);
    for (const [ownerId, delta] of changes) await this.record(db, ownerId, delta);
  }

  /** The usage of everything registered as stored for the repository. */
  private async repositoryAssets(db: Db, repoId: number): Promise<UsageDelta> {
    let total: UsageDelta = {};
    for (const source of this.assetSources) total = sum(total, await source(db, repoId));
    return total;
  }
}

function negate(d: UsageDelta): UsageDelta {
  return Object.fromEntries(Object.entries(d).map(([k, v]) => [k, -(v ?? 0)]));
}

function sum(a: UsageDelta, b: UsageDelta): UsageDelta {
  const out: Record<string, number> = { ...(a as Record<string, number>) };
  for (const [k, v] of Object.entries(b)) out[k] = (out[k] ?? 0) + (v ?? 0);
  return out;
}
