import { PermissionDeniedError, type RepoUnit, type User } from "@kiln/domain";
import type { RepoAccess } from "./access-service.js";
import { checkNeed } from "./repo-need.js";
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from "./repo-permission.js";

/** What a repository rule looks at: the caller's permission and who the caller is. */
type Caller = Pick<RepoAccess, "permission" | "viewer">;

/** The caller's rights on a repository as Forgejo's `permissions` block shows them. */
export interface RepoPermissionView {
  readonly admin: boolean;
  readonly push: boolean;
  readonly pull: boolean;
}

/** Forgejo's `permissions` of a repository: administration, and writing and reading its code. */
export function repoPermissionView(permission: RepoPermission): RepoPermissionView {
  return {
    admin: isRepoAdmin(permission),
    push: canWrite(permission, "repo.code"),
    pull: canRead(permission, "repo.code"),
  };
}

/**
 * Whether the caller administers the repository (Forgejo's IsAdmin on a repository permission, or
 * a site admin): who may see rule names, change others' comments' attachments, and override
 * the rules that bind ordinary writers.
 */
export function administersRepo(caller: Caller): boolean {
  return isRepoAdmin(caller.permission) || caller.viewer?.isAdmin === true;
}

/** Whether the caller may read `unit` (site admins always may). */
export function readsUnit(caller: Caller, unit: RepoUnit): boolean {
  return canRead(caller.permission, unit) || caller.viewer?.isAdmin === true;
}

/** Whether the caller may write to `unit` (site admins always may). */
export function writesUnit(caller: Caller, unit: RepoUnit): boolean {
  return canWrite(caller.permission, unit) || caller.viewer?.isAdmin === true;
}

/**
 * Whether a branch shows the name of the protection rule that governs it: Forgejo shows it only to
 * repository admins, since rule names can reveal how the repository is administered.
 */
export function seesBranchRuleNames(caller: Caller): boolean {
  return administersRepo(caller);
}

/** Whether a deploy key shows its repository: Forgejo shows it to site admins and the repository's owner. */
export function seesDeployKeyRepository(access: Pick<RepoAccess, "viewer" | "owner">): boolean {
  const { viewer } = access;
  return viewer !== null && (viewer.isAdmin || viewer.id === access.owner.id);
}

/**
 * Whether the caller may ask what `target` may do on the repository (Forgejo's
 * GetRepoPermissions): site admins and repository admins ask about anyone, others only about
 * themselves.
 */
export function mayQueryPermissionOf(caller: Caller, target: Pick<User, "id">): boolean {
  return administersRepo(caller) || caller.viewer?.id === target.id;
}

/** Throws Forgejo's 403 unless {@link mayQueryPermissionOf} allows the question. */
export function requirePermissionQuery(caller: Caller, target: Pick<User, "id">): void {
  if (!mayQueryPermissionOf(caller, target)) {
    throw new PermissionDeniedError(
      "Only admins can query all permissions, repo admins can query all repo permissions, collaborators can query only their own",
    );
  }
}

/**
 * Throws Forgejo's 403 unless `user` may remove an LFS lock held by `lock.ownerId` (its
 * DeleteLFSLock): the lock's owner always; anyone else only with `force`, and then only as an
 * admin of the repository.
 */
export function requireLockRemoval(
  lock: { readonly ownerId: number; readonly ownerName: string },
  user: User,
  permission: RepoPermission,
  force: boolean,
): void {
  if (lock.ownerId === user.id) return;
  if (!force)
    throw new PermissionDeniedError(`the lock belongs to ${lock.ownerName}; use force to remove it`);
  try {
    checkNeed(permission, "admin", user);
  } catch {
    throw new PermissionDeniedError("only repository admins may force the removal of another user's lock");
  }
}
