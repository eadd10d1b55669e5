import { type AccessMode, atLeast, type User } from "@kiln/domain";
import type { OrgPermission } from "./org-permission.js";

/**
 * The access an organization's standing gives to its packages (Forgejo's determineAccessMode):
 * owners own them, admins administer them, members whose teams write may write, others read.
 * Teams' own packages units may raise it further.
 */
export function orgPackageMode(
  permission: Pick<OrgPermission, "isOwner" | "isAdmin" | "canWrite">,
): AccessMode {
  if (permission.isOwner) return "owner";
  if (permission.isAdmin) return "admin";
  return permission.canWrite ? "write" : "read";
}

/** Whether a caller with `mode` on an owner's packages may write them (site admins always may). */
export function mayWritePackages(mode: AccessMode, user: Pick<User, "isAdmin"> | null): boolean {
  return atLeast(mode, "write") || user?.isAdmin === true;
}

/** Whether an uploader is held to the package size and count limits: everyone but site admins. */
export function heldToPackageLimits(user: Pick<User, "isAdmin"> | null): boolean {
  return user?.isAdmin !== true;
}
