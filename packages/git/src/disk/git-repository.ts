/**
 * A handle on one bare repository of the store, passed to every read and write function of
 * this package. Obtain it from `RepoStore.open` or `RepoStore.create`.
 */
export interface GitRepository {
  /** Lower-cased owner name (the directory under the store root). */
  readonly owner: string;
  /** Lower-cased repository name, without `.git`. */
  readonly name: string;
  /** Absolute path of the bare repository directory. */
  readonly gitdir: string;
  /** Runs `fn` holding this repository's write lock, so writes to one repository never interleave. */
  withWriteLock<T>(fn: () => Promise<T>): Promise<T>;
}
