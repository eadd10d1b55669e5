/**
 * Who asks whether they may reuse a stored object, as far as repository visibility goes: the
 * same shape as the storage layer's `RepoViewer` (null when anonymous; `publicOnly` for a
 * `public-only` token).
 */
export type LfsViewer = {
  readonly id: number;
  readonly isAdmin: boolean;
  readonly isRestricted: boolean;
  readonly publicOnly: boolean;
} | null;

/**
 * Which repositories reference which objects of an {@link LfsStore}. The store only holds bytes;
 * the references live in the database, so the service layer implements this and attaches it to
 * the store it creates, and the LFS endpoints ask it (never the store alone) what a repository
 * may see. An object a repository does not reference is, for that repository, an object that
 * does not exist.
 */
export interface LfsReferences {
  /** Sizes of those of `oids` that the repository references. */
  of(repoId: number, oids: readonly string[]): Promise<ReadonlyMap<string, number>>;
  /** Records a verified upload for the repository (a new reference counts in its LFS size and usage). */
  add(repoId: number, oid: string, size: number): Promise<void>;
  /**
   * Links an object already stored with `size` bytes to the repository without an upload, when
   * `viewer` can see a repository that references it with that size (Forgejo's
   * `LFSObjectAccessible`); resolves false, linking nothing, otherwise.
   */
  linkVisible(repoId: number, viewer: LfsViewer, oid: string, size: number): Promise<boolean>;
}
