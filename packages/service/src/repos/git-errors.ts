import {
  AlreadyExistsError,
  ConflictError,
  InvalidArgumentError,
  type KilnError,
  NotFoundError,
  PermissionDeniedError,
  ServiceUnavailableError,
} from "@kiln/domain";
import { GitError } from "@kiln/git";

/** How one call site wants a git error kind reported, when it differs from the default. */
export type GitErrorOverrides = Partial<Record<GitError["kind"], (message: string) => KilnError>>;

const DEFAULTS: Record<GitError["kind"], (message: string) => KilnError> = {
  not_found: (m) => new NotFoundError(m),
  already_exists: (m) => new AlreadyExistsError(m),
  invalid_argument: (m) => new InvalidArgumentError(m),
  conflict: (m) => new ConflictError(m),
  empty_repository: (m) => new NotFoundError(m),
  sha_mismatch: (m) => new InvalidArgumentError(m),
  default_branch: (m) => new PermissionDeniedError(m),
  lfs_verify_failed: (m) => new InvalidArgumentError(m),
  migration_failed: (m) => new InvalidArgumentError(m),
  merge_conflict: (m) => new InvalidArgumentError(m),
  merge_refused: (m) => new InvalidArgumentError(m),
  busy: (m) => new ServiceUnavailableError(m),
};

/**
 * Runs a git operation and turns `@kiln/git`'s typed errors into domain errors, so the HTTP
 * layer's single error mapping applies; call sites override a kind where Forgejo answers
 * differently (e.g. an empty repository is 409 for commit lists).
 */
export async function withGitErrors<T>(op: () => Promise<T>, overrides: GitErrorOverrides = {}): Promise<T> {
  try {
    return await op();
  } catch (err) {
    if (err instanceof GitError) {
      const make = overrides[err.kind] ?? DEFAULTS[err.kind];
      throw make(err.message);
    }
    throw err;
  }
}
