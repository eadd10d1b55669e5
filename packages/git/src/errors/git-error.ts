/**
 * The kind of a git-layer failure, spelled like `@kiln/domain`'s `ErrorKind` where they overlap
 * (not_found, already_exists, invalid_argument, conflict); the rest are specials the caller
 * maps to the status Forgejo answers for them.
 */
export type GitErrorKind =
  | "not_found"
  | "already_exists"
  | "invalid_argument"
  | "empty_repository"
  | "sha_mismatch"
  | "default_branch"
  | "conflict"
  | "lfs_verify_failed"
  | "migration_failed"
  | "merge_conflict"
  | "merge_refused"
  | "busy";

/** Base class of every error this package throws on purpose; `kind` tells the caller which status fits. */
export class GitError extends Error {
  readonly kind: GitErrorKind;

  constructor(kind: GitErrorKind, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.kind = kind;
    this.name = new.target.name;
  }
}

/** A repository, ref, commit, path or object does not exist (Forgejo: 404). */
export class GitNotFoundError extends GitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("not_found", message, options);
  }
}

/** A repository, branch, tag or file that should be created exists already (Forgejo: 409 or 422). */
export class GitAlreadyExistsError extends GitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("already_exists", message, options);
  }
}

/** An argument is malformed: a bad name, path, oid or option combination (Forgejo: 422). */
export class GitInvalidArgumentError extends GitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("invalid_argument", message, options);
  }
}

/** The repository has no commits, so the operation has nothing to start from (Forgejo: 404 for branch creation). */
export class GitEmptyRepositoryError extends GitError {
  constructor(message = "repository is empty") {
    super("empty_repository", message);
  }
}

/** The blob sha given for an update or delete is not the file's current sha (Forgejo: 422 or 400). */
export class GitShaMismatchError extends GitError {
  readonly path: string;
  readonly expected: string;
  readonly actual: string;

  constructor(path: string, given: string, actual: string) {
    super("sha_mismatch", `sha does not match [given: ${given}, expected: ${actual}]`);
    this.path = path;
    this.expected = given;
    this.actual = actual;
  }
}

/** The default branch of a repository cannot be deleted (Forgejo: 403). */
export class GitDefaultBranchError extends GitError {
  constructor(branch: string) {
    super("default_branch", `can not delete default branch ${branch}`);
  }
}

/** A ref moved while an API write was preparing its update, e.g. a push landed meanwhile (Forgejo: 409). */
export class GitConflictError extends GitError {
  constructor(message: string) {
    super("conflict", message);
  }
}

/** An uploaded LFS object's content does not hash to its oid or has the wrong size (LFS: 422). */
export class LfsVerifyError extends GitError {
  constructor(message: string) {
    super("lfs_verify_failed", message);
  }
}

/** Cloning a remote repository for a migration failed; nothing was left behind. */
export class GitMigrationError extends GitError {
  constructor(message: string, options?: { cause?: unknown }) {
    super("migration_failed", message, options);
  }
}

/** Merging, rebasing or cherry-picking met conflicting changes; `files` names them (Forgejo: 409 or 422). */
export class GitMergeConflictError extends GitError {
  readonly files: readonly string[];

  constructor(message: string, files: readonly string[]) {
    super("merge_conflict", message);
    this.files = files;
  }
}

/** A merge cannot be done in the asked style, e.g. a fast-forward of diverged branches (Forgejo: 409 or 422). */
export class GitMergeRefusedError extends GitError {
  constructor(message: string) {
    super("merge_refused", message);
  }
}

/** The server's git work is at its limit and no slot came free in time (503; try again later). */
export class GitBusyError extends GitError {
  constructor(message: string) {
    super("busy", message);
  }
}
