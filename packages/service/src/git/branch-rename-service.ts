import { InvalidArgumentError, NotFoundError, PermissionDeniedError, type User } from "@kiln/domain";
import {
  deleteBranchAt,
  findBranchRule,
  isPlainRuleName,
  isValidBranchName,
  listRefs,
  type RefUpdate,
  renameBranch,
  ZERO_SHA,
} from "@kiln/git";
import { branchRename } from "@kiln/storage";
import type { RepoAccess } from "../access/access-service.js";
import { administersRepo } from "../access/repo-rules.js";
import { withGitErrors } from "../repos/git-errors.js";
import type { RefMoveFinisher } from "../repos/ref-journal.js";
import type { RefUpdates } from "../repos/ref-updates.js";
import type { RepoService } from "../repos/repo-service.js";
import { assertNotArchived, type BranchProtectionService } from "./branch-protection-service.js";

const TARGET_EXISTS = "Cannot rename a branch using the same name or rename to a branch that already exists.";
const FROM_MISSING = "Branch doesn't exist.";

/**
 * Renaming a branch (Forgejo's `PATCH /repos/{owner}/{repo}/branches/{branch}`, services/repository
 * RenameBranch): the default branch and a branch with a rule of its own name need a repository or
 * site admin; a branch a glob rule covers cannot be renamed. The rule named like the branch, the
 * default branch and open pull requests into it follow the new name, and the rename is recorded as
 * a push would be: the old name deleted, the new one created. The rename is journalled
 * (docs/architecture.md, "The git window"): the rows follow in the transaction that claims it.
 */
export class BranchRenameService {
  constructor(
    private readonly repos: RepoService,
    private readonly refs: RefUpdates,
    private readonly protections: BranchProtectionService,
  ) {
    repos.journal.register("rename", renameFinisher(repos, refs));
  }

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

    const admin = administersRepo({ permission: access.permission, viewer: doer });
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

    await this.refs.move(repo, doer.id, {
      kind: "rename",
      move: (beforeMove) =>
        withGitErrors(() => renameBranch(git, from, to, beforeMove), {
          not_found: () => new NotFoundError(FROM_MISSING),
          already_exists: () => new InvalidArgumentError(TARGET_EXISTS),
          conflict: () => new InvalidArgumentError("The branch with the same name already exists."),
        }),
      updatesOf: ({ sha }) => renameUpdates(from, to, sha),
      record: (trx) => branchRename.renameBranchRows(trx, repo.id, from, to, repo.defaultBranch === from),
      repoAfter: ({ wasDefault }) => (wasDefault ? { ...repo, defaultBranch: to } : repo),
    });
  }
}

/** A rename as git's moves: the old name deleted, then the new one created (Forgejo's push order). */
function renameUpdates(from: string, to: string, sha: string): RefUpdate[] {
  return [
    { ref: `refs/heads/${from}`, oldSha: sha, newSha: ZERO_SHA },
    { ref: `refs/heads/${to}`, oldSha: ZERO_SHA, newSha: sha },
  ];
}

/**
 * Finishes a rename a crash interrupted once the new name exists: the old name is removed if git
 * had not yet (while it still holds the commit), then the rows follow the new name and the
 * deletion and creation are recorded, as an uninterrupted rename does.
 */
function renameFinisher(repos: RepoService, refs: RefUpdates): RefMoveFinisher {
  return async (repo, git, intents, landed) => {
    const removed = intents.find((i) => i.newSha === ZERO_SHA);
    const created = landed.find((i) => i.oldSha === ZERO_SHA);
    const operation = intents[0]?.operation;
    if (!operation) return;
    if (!removed || !created) return void (await repos.journal.drop(operation));
    const from = removed.ref.slice("refs/heads/".length);
    const to = created.ref.slice("refs/heads/".length);
    if (!landed.includes(removed)) await deleteBranchAt(git, from, removed.oldSha);
    await refs.record(repo, renameUpdates(from, to, created.newSha), created.doerId, {
      operation,
      kind: "rename",
      record: (trx) => branchRename.renameBranchRows(trx, repo.id, from, to, repo.defaultBranch === from),
    });
  };
}
