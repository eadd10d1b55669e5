import { NotFoundError, PermissionDeniedError, type RepoUnit, type User } from "@kiln/domain";
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from "./repo-permission.js";

/**
 * What a repository route needs of the caller, as Forgejo's router declares it per route:
 * `read` (the repository is visible: repoAssignment), `{ read: unit }` (reqRepoReader),
 * `{ write: units }` (reqRepoWriter: any of them), `branch-write` (reqRepoBranchWriter: write
 * to the code; the branch's own rules are the service's check), `admin` (reqAdmin), `owner` (reqOwner).
 * `hiddenWithout` adds a unit the caller must be able to read for the route to exist at all (404
 * otherwise, before the read check): Forgejo's mustAllowPulls before reqRepoReader(code).
 */
export type RepoNeed =
  | "read"
  | "branch-write"
  | "admin"
  | "owner"
  | { readonly read: RepoUnit; readonly hiddenWithout?: RepoUnit }
  | { readonly write: readonly RepoUnit[] };

/** Throws Forgejo's 403 when `permission` does not meet `need` (visibility is checked before). */
export function checkNeed(permission: RepoPermission, need: RepoNeed, user: User | null): void {
  const siteAdmin = user?.isAdmin === true;
  if (need === "read") return;
  if (need === "owner") {
    if (permission.mode !== "owner" && !siteAdmin)
      throw new PermissionDeniedError("user should be the owner of the repo");
    return;
  }
  if (need === "branch-write") {
    if (!canWrite(permission, "repo.code") && !siteAdmin)
      throw new PermissionDeniedError("user should have a permission to write to this branch");
    return;
  }
  const admin = isRepoAdmin(permission) || siteAdmin;
  if (typeof need === "object" && "hiddenWithout" in need && need.hiddenWithout) {
    if (!canRead(permission, need.hiddenWithout) && !admin) throw new NotFoundError();
  }
  if (need === "admin") {
    if (!admin)
      throw new PermissionDeniedError(
        "user should be an owner or a collaborator with admin write of a repository",
      );
    return;
  }
  if ("read" in need) {
    if (!canRead(permission, need.read) && !admin)
      throw new PermissionDeniedError(
        "user should have specific read permission or be a repo admin or a site admin",
      );
    return;
  }
  if (!need.write.some((u) => canWrite(permission, u)) && !admin)
    throw new PermissionDeniedError("user should have a permission to write to a repo");
}
