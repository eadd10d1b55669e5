import { InvalidArgumentError, PermissionDeniedError, type Repository, type User } from "@kiln/domain";
import { applyPatch, parseFilePatterns, ZERO_SHA } from "@kiln/git";
import type { ServiceContext } from "../context.js";
import type { PullChecker } from "../pulls/pull-check.js";
import { withGitErrors } from "../repos/git-errors.js";
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
    private readonly protections: BranchProtectionService,
    private readonly pullChecks?: PullChecker,
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
    const endPush = this.pullChecks?.pushes.begin(repo.id, doer.id);
    // The move is journalled before the branch moves, so a crash after it still records the push.
    let operation: string | undefined;
    try {
      const result = await withGitErrors(
        () =>
          applyPatch(git, {
            beforeMove: async (update) => {
              operation = await this.repos.journal.announce(repo.id, "contents", doer.id, [update]);
            },
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
      );
      const oldSha = newBranch ? ZERO_SHA : (result.commit.parents[0] ?? ZERO_SHA);
      const after = await this.repos.afterPush(
        repo,
        [{ oldSha, newSha: result.commit.sha, ref: `refs/heads/${result.branch}` }],
        doer.id,
        operation ? { operation, kind: "contents" } : undefined,
      );
      await this.pullChecks?.pushed(after, [result.branch]);
      return {
        commit: result.commit,
        branch: result.branch,
        ref: { name: result.branch, kind: "branch", path: result.branch },
        files: [],
      };
    } catch (error) {
      if (operation) await this.repos.journal.settle(operation);
      throw error;
    } finally {
      endPush?.();
    }
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
