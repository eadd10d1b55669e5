import {
  BadRequestError,
  InvalidArgumentError,
  PermissionDeniedError,
  type Repository,
  type User,
} from "@kiln/domain";
import { type ChangeFilesResult, changeFiles, type FileChange, parseFilePatterns, ZERO_SHA } from "@kiln/git";
import type { ServiceContext } from "../context.js";
import { type GitErrorOverrides, withGitErrors } from "../repos/git-errors.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import type { BranchProtectionService } from "./branch-protection-service.js";
import { assertNotArchived } from "./branch-protection-service.js";
import { commitSignatures, type IdentityInput } from "./commit-identity.js";
import type { ContentItem, ContentService, ContentsRef } from "./content-service.js";
import { mayPush } from "./protection-rules.js";

/** One file operation of an API commit (Forgejo's ChangeFileOperation, content decoded). */
export type FileOperation =
  | { readonly operation: "create"; readonly path: string; readonly content: Uint8Array }
  | {
      readonly operation: "update";
      readonly path: string;
      readonly content: Uint8Array;
      readonly sha: string;
      readonly fromPath?: string;
    }
  | { readonly operation: "delete"; readonly path: string; readonly sha: string };

/** Where and how to commit (Forgejo's FileOptions). */
export interface FileCommitInput {
  /** The branch to commit on (default branch when absent); it must exist unless the repository is empty. */
  readonly branch?: string;
  /** Create this branch from `branch` and commit there instead. */
  readonly newBranch?: string;
  readonly message?: string;
  readonly author?: IdentityInput;
  readonly committer?: IdentityInput;
  readonly dates?: { readonly author?: Date; readonly committer?: Date };
  readonly signoff?: boolean;
}

/** What an API commit did: the commit, its branch and each file as it now stands (null: deleted). */
export interface FileCommitResult {
  readonly commit: ChangeFilesResult["commit"];
  readonly branch: string;
  readonly ref: ContentsRef;
  readonly files: readonly (ContentItem | null)[];
}

type Overrides = GitErrorOverrides;
const invalid = (m: string) => new InvalidArgumentError(m);
const bad = (m: string) => new BadRequestError(m);
/** Forgejo answers create/update problems with 422 and delete problems with 400. */
const WRITE_ERRORS: Overrides = { already_exists: invalid };
const DELETE_ERRORS: Overrides = { already_exists: bad, sha_mismatch: bad, invalid_argument: bad };

/**
 * Commits through the contents API (Forgejo's ChangeRepoFiles): checks the branch protection of
 * the target branch for the doer (unless committing to a new branch), writes one commit with
 * `@kiln/git`, then re-measures the repository so its size and quota usage stay right.
 */
export class FileService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    /** Moves the branch as the doer's push (pull requests on it are checked again). */
    private readonly refs: RefUpdates,
    private readonly protections: BranchProtectionService,
    private readonly contents: ContentService,
  ) {}

  /** Creates one file; 422 when it exists, 404 when the branch does not. */
  createFile(
    repo: Repository,
    doer: User,
    op: FileOperation & { operation: "create" },
    input: FileCommitInput,
  ) {
    return this.commit(repo, doer, [op], input, WRITE_ERRORS);
  }

  /** Replaces one file whose current blob sha is `op.sha` (422 when it is not); 422 on an empty repository. */
  updateFile(
    repo: Repository,
    doer: User,
    op: FileOperation & { operation: "update" },
    input: FileCommitInput,
  ) {
    if (repo.isEmpty) throw new InvalidArgumentError("repo is empty");
    return this.commit(repo, doer, [op], input, WRITE_ERRORS);
  }

  /** Deletes one file; 404 when it or the branch does not exist, 400 for a stale sha. */
  deleteFile(
    repo: Repository,
    doer: User,
    op: FileOperation & { operation: "delete" },
    input: FileCommitInput,
  ) {
    return this.commit(repo, doer, [op], input, DELETE_ERRORS);
  }

  /**
   * Applies several operations in one commit; 422 naming `[api] MAX_CHANGE_FILES` for more
   * operations than it allows (each costs git work; the request's bytes alone do not bound it).
   */
  changeFiles(repo: Repository, doer: User, ops: readonly FileOperation[], input: FileCommitInput) {
    const max = this.ctx.settings.api.maxChangeFiles;
    if (ops.length > max) {
      throw new InvalidArgumentError(
        `files: at most ${max} file operations per request ([api] MAX_CHANGE_FILES), ${ops.length} given`,
      );
    }
    return this.commit(repo, doer, ops, input, WRITE_ERRORS);
  }

  private async commit(
    repo: Repository,
    doer: User,
    ops: readonly FileOperation[],
    input: FileCommitInput,
    overrides: Overrides,
  ): Promise<FileCommitResult> {
    assertNotArchived(repo);
    const base = input.branch || repo.defaultBranch;
    const newBranch = input.newBranch && input.newBranch !== base ? input.newBranch : undefined;
    if (!newBranch) await this.checkProtection(repo, doer, base, ops);
    const { author, committer } = commitSignatures(doer, this.ctx.settings, input);
    const git = await this.repos.git(repo);
    return this.writeAndRead(repo, doer, git, ops, input, overrides, {
      base,
      newBranch,
      author,
      committer,
    });
  }

  private async writeAndRead(
    repo: Repository,
    doer: User,
    git: Awaited<ReturnType<RepoService["git"]>>,
    ops: readonly FileOperation[],
    input: FileCommitInput,
    overrides: Overrides,
    how: {
      readonly base: string;
      readonly newBranch: string | undefined;
      readonly author: ReturnType<typeof commitSignatures>["author"];
      readonly committer: ReturnType<typeof commitSignatures>["committer"];
    },
  ): Promise<FileCommitResult> {
    const { base, newBranch, author, committer } = how;
    // The write is a push by the doer (RefUpdates): journalled before the branch moves, so a crash
    // after it still records the push. The branch moved from the commit's parent (or was made by it).
    const result = await this.refs.move(repo, doer.id, {
      kind: "contents",
      move: (beforeMove) =>
        withGitErrors(
          () =>
            changeFiles(git, {
              files: ops.map(toFileChange),
              branch: base,
              ...(newBranch ? { newBranch } : {}),
              message: input.message || defaultMessage(ops),
              author,
              committer,
              ...(input.signoff ? { signoff: true } : {}),
              beforeMove,
            }),
          overrides,
        ),
      updatesOf: (written) => [
        {
          oldSha: newBranch || repo.isEmpty ? ZERO_SHA : (written.commit.parents[0] ?? ZERO_SHA),
          newSha: written.commit.sha,
          ref: `refs/heads/${written.branch}`,
        },
      ],
    });
    const files: (ContentItem | null)[] = [];
    let ref: ContentsRef = { name: result.branch, kind: "branch", path: result.branch };
    for (const [index, op] of ops.entries()) {
      if (op.operation === "delete" || result.files[index] === null) {
        files.push(null);
        continue;
      }
      // Read from the commit just made: the branch may have moved on since (another process).
      const view = await this.contents.contentsOfCommit(repo, op.path, result.branch, result.commit.sha);
      ref = view.ref;
      files.push(view.items[0] ?? null);
    }
    return { commit: result.commit, branch: result.branch, ref, files };
  }

  /**
   * Forgejo's VerifyBranchProtection: without push rights only unprotected files may change,
   * protected files never, and a rule requiring signed commits refuses (Kiln cannot sign).
   */
  private async checkProtection(repo: Repository, doer: User, branch: string, ops: readonly FileOperation[]) {
    const rule = await this.protections.ruleFor(repo, branch);
    if (!rule) return;
    const canPush = mayPush(rule.settings, await this.protections.pusherFacts(repo, doer));
    const unprotected = parseFilePatterns(rule.settings.unprotectedFilePatterns);
    const protectedFiles = parseFilePatterns(rule.settings.protectedFilePatterns);
    const cannotCommit = () => new PermissionDeniedError(`user cannot commit to repo [user: ${doer.name}]`);
    for (const path of ops.flatMap((op) =>
      op.operation === "update" && op.fromPath ? [op.fromPath, op.path] : [op.path],
    )) {
      if (!canPush && !unprotected.matches(path)) throw cannotCommit();
      if (protectedFiles.matches(path)) {
        throw new PermissionDeniedError(`path is protected and can not be changed [path: ${path}]`);
      }
    }
    if (rule.settings.requireSignedCommits) throw cannotCommit();
  }
}

function toFileChange(op: FileOperation): FileChange {
  if (op.operation === "create") return { operation: "create", path: op.path, content: op.content };
  if (op.operation === "delete") return { operation: "delete", path: op.path, sha: op.sha };
  return {
    operation: "update",
    path: op.path,
    content: op.content,
    sha: op.sha,
    ...(op.fromPath && op.fromPath !== op.path ? { fromPath: op.fromPath } : {}),
  };
}

/** Forgejo's default message: `Add a, b`, `Update c`, `Delete d`, one line per kind. */
function defaultMessage(ops: readonly FileOperation[]): string {
  const lines: string[] = [];
  for (const [kind, verb] of [
    ["create", "Add"],
    ["update", "Update"],
    ["delete", "Delete"],
  ] as const) {
    const paths = ops.filter((op) => op.operation === kind).map((op) => op.path);
    if (paths.length > 0) lines.push(`${verb} ${paths.join(", ")}`);
  }
  return lines.join("\n");
}
