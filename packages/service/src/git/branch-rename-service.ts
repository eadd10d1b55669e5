import { InvalidArgumentError, NotFoundError, PermissionDeniedError, type User } from "@kiln/domain";
import {
  findBranchRule,
  isPlainRuleName,
  isValidBranchName,
  listRefs,
  renameBranch,
  ZERO_SHA,
} from "@kiln/git";
import { branchRename } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { isRepoAdmin } from "../access/repo-permission.js";
import type { ServiceContext } from "../context.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RepoService } from "../repos/repo-service.js";
import { assertNotArchived, type BranchProtectionService } from "./branch-protection-service.js";

const TARGET_EXISTS = "Cannot rename a branch using the same name or rename to a branch that already exists.";
const FROM_MISSING = "Branch doesn't exist.";

/**
 * Renaming a branch (Forgejo's `PATCH /repos/{owner}/{repo}/branches/{branch}`, services/repository
 * RenameBranch): the default branch and a branch with a rule of its own name need a repository or
 * site admin; a branch a glob rule covers cannot be renamed. The rule named like the branch, the
 * default branch and open pull requests into it follow the new name, and the rename is recorded as
 * a push would be: the old name deleted, the new one created.
 */
export class BranchRenameService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly repos: RepoService,
    private readonly protections: BranchProtectionService,
  ) {}

  /** Renames `from` to `to` for `doer`, as `access` (the request's repository and permission) resolved it. */
  async rename(access: RepoAccess, doer: User, from: string, to: string): Promise<void> {
    const { repo } = access;
    if (!isValidBranchName(to)) throw new InvalidArgumentError("[Name]: GitRefName");
    if (repo.isEmpty) throw new NotFoundError("Git Repository is empty.");
    if (repo.isMirror) throw new PermissionDeniedError("Git Repository is a mirror.");
    assertNotArchived(repo);
    const git = await this.repos.git(repo);
    const refs = await withGitErrors(() => listRefs(git, "refs/"));
    const has = (ref: string) => refs.some((r) => r.ref === ref);
    if (from === to || has(`refs/heads/${to}`)) throw new InvalidArgumentError(TARGET_EXISTS);
    if (!has(`refs/heads/${from}`)) throw new NotFoundError(FROM_MISSING);
    if (has(`refs/tags/${to}`))
      throw new InvalidArgumentError("The branch with the same tag already exists.");
    const nests = refs.some((r) => {
      if (!r.ref.startsWith("refs/heads/") || r.ref === `refs/heads/${from}`) return false;
      const other = r.ref.slice("refs/heads/".length);
      return other.startsWith(`${to}/`) || to.startsWith(`${other}/`);
    });
    if (nests) throw new InvalidArgumentError("The branch with the same name already exists.");

    const admin = isRepoAdmin(access.permission) || doer.isAdmin;
    const rule = findBranchRule(await this.protections.list(repo), from);
    const ownRule = rule !== undefined && rule.ruleName === from && isPlainRuleName(rule.ruleName);
    if ((from === repo.defaultBranch || ownRule) && !admin) {
      throw new PermissionDeniedError(
        "User must be a repo or site admin to rename default or protected branches.",
      );
    }
    if (rule && !ownRule)
      throw new PermissionDeniedError("Branch is protected by glob-based protection rules.");
    // The new name must not land under a rule: that would make a protected branch of whatever the
    // renamed branch holds, past the rule's push allowlist. A rule named like the target (which
    // the renamed branch's own rule would collide with) is refused too.
    const rules = await this.protections.list(repo);
    const targetRule = findBranchRule(rules, to);
    if (targetRule && !admin)
      throw new PermissionDeniedError(
        "User must be a repo or site admin to rename a branch to a protected name.",
      );
    if (ownRule && rules.some((r) => r.ruleName === to))
      throw new InvalidArgumentError("A branch protection rule with the new name already exists.");

    const { sha, wasDefault } = await withGitErrors(() => renameBranch(git, from, to), {
      not_found: () => new NotFoundError(FROM_MISSING),
      already_exists: () => new InvalidArgumentError(TARGET_EXISTS),
      conflict: () => new InvalidArgumentError("The branch with the same name already exists."),
    });
    await this.ctx.db
      .transaction()
      .execute((trx) => branchRename.renameBranchRows(trx, repo.id, from, to, wasDefault));
    await this.repos.afterPush(
      wasDefault ? { ...repo, defaultBranch: to } : repo,
      [
        { ref: `refs/heads/${from}`, oldSha: sha, newSha: ZERO_SHA },
        { ref: `refs/heads/${to}`, oldSha: ZERO_SHA, newSha: sha },
      ],
      doer.id,
    );
  }
}
