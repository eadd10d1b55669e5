import { InvalidArgumentError, PermissionDeniedError, type Repository, type User } from "@kiln/domain";
import { applyPatch, parseFilePatterns, ZERO_SHA } from "@kiln/git";
import type { ServiceContext } from "../context.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import { assertNotArchived, type BranchProtectionService } from "./branch-protection-service.js";
import { commitSignatures } from "./commit-identity.js";
import type { FileCommitInput, FileCommitResult } from "./file-service.js";
import { mayPush } from "./protection-rules.js";

/**
 * `POST /repos/{owner}/{repo}/diffpatch` (Forgejo's ApplyDiffPatch): a unified diff committed to a
 * branch, or to a new branch made from it, with the same branch protection as the contents API
 * (a pusher the rule does not allow may only change unprotected files, nobody protected files, and
 * a rule requiring signed commits refuses since Kiln cannot sign). The commit is recorded as the
 * doer's push and the repository re-measured, as file writes are.
 */
export class PatchService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
    private readonly protections: BranchProtectionService,
  ) {}

  async apply(
    repo: Repository,
    doer: User,
    patch: string,
    input: FileCommitInput,
  ): Promise<FileCommitResult> {
    assertNotArchived(repo);
    const base = input.branch || repo.defaultBranch;
    const newBranch = input.newBranch && input.newBranch !== base ? input.newBranch : undefined;
    const check = newBranch ? undefined : await this.protectionCheck(repo, doer, base);
    const { author, committer } = commitSignatures(doer, this.ctx.settings, input);
    const git = await this.repos.git(repo);
    // A push by the doer (RefUpdates), journalled before the branch moves.
    const result = await this.refs.move(repo, doer.id, {
      kind: "contents",
      move: (beforeMove) =>
        withGitErrors(
          () =>
            applyPatch(git, {
              beforeMove,
              patch,
              branch: base,
              ...(newBranch ? { newBranch } : {}),
              message: input.message || "apply-patch",
              author,
              committer,
              ...(input.signoff ? { signoff: true } : {}),
              ...(check ? { beforeUpdate: check } : {}),
            }),
          // Forgejo answers an existing new branch with 422 (ErrBranchAlreadyExists).
          { already_exists: (m) => new InvalidArgumentError(m) },
        ),
      updatesOf: (applied) => [
        {
          oldSha: newBranch ? ZERO_SHA : (applied.commit.parents[0] ?? ZERO_SHA),
          newSha: applied.commit.sha,
          ref: `refs/heads/${applied.branch}`,
        },
      ],
    });
    return {
      commit: result.commit,
      branch: result.branch,
      ref: { name: result.branch, kind: "branch", path: result.branch },
      files: [],
    };
  }

  /** The protection of `branch` for `doer`, as a check of the paths a patch changes (none when unprotected). */
  private async protectionCheck(repo: Repository, doer: User, branch: string) {
    const rule = await this.protections.ruleFor(repo, branch);
    if (!rule) return undefined;
    const cannotCommit = () => new PermissionDeniedError(`user cannot commit to repo [user: ${doer.name}]`);
    if (rule.settings.requireSignedCommits) throw cannotCommit();
    const canPush = mayPush(rule.settings, await this.protections.pusherFacts(repo, doer));
    const unprotected = parseFilePatterns(rule.settings.unprotectedFilePatterns);
    const protectedFiles = parseFilePatterns(rule.settings.protectedFilePatterns);
    return async (paths: readonly string[]) => {
      for (const path of paths) {
        if (!canPush && !unprotected.matches(path)) throw cannotCommit();
        if (protectedFiles.matches(path)) {
          throw new PermissionDeniedError(`path is protected and can not be changed [path: ${path}]`);
        }
      }
    };
  }
}
