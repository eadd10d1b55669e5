import type { ProtectedBranchSettings } from "@kiln/domain";
import type { RepoAccess } from "./access-service.js";
import { canWrite, isRepoAdmin } from "./repo-permission.js";

/** What a merge rule looks at: the caller's permission on the repository and who the caller is. */
type Caller = Pick<RepoAccess, "permission" | "viewer">;

/**
 * Whether the caller may merge past the branch's protection checks (`force_merge`): site admins
 * always; repository admins unless the rule applies to admins too.
 */
export function mayForceMerge(caller: Caller, settings: ProtectedBranchSettings | undefined): boolean {
  if (caller.viewer?.isAdmin === true) return true;
  return isRepoAdmin(caller.permission) && settings?.applyToAdmins !== true;
}

/**
 * Whether the caller may cancel a scheduled merge: the user who scheduled it, a repository admin
 * or a site admin.
 */
export function mayCancelAutoMerge(caller: Caller, scheduledBy: number): boolean {
  const { viewer } = caller;
  return viewer !== null && (viewer.id === scheduledBy || viewer.isAdmin || isRepoAdmin(caller.permission));
}

/**
 * Whether the caller may delete a merged pull request's head branch, judged on the head
 * repository (`head`, perhaps a fork): write access to its code, or a site admin.
 */
export function mayDeleteHeadBranch(head: Caller): boolean {
  return canWrite(head.permission, "repo.code") || head.viewer?.isAdmin === true;
}
