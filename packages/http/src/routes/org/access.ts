import { PermissionDeniedError, type User } from "@kiln/domain";
import { toApiOrg } from "../../convert/org.js";
import type { AppContext } from "../../env.js";

/** Forgejo's reqOrgOwnership: site admins and organization owners pass; others get 403. */
export async function requireOrgOwner(c: AppContext, org: User, doer: User): Promise<void> {
  if (doer.isAdmin || (await c.var.services.permissions.isOrgOwner(org, doer))) return;
  throw new PermissionDeniedError("Must be an organization owner");
}

/** Forgejo's reqOrgMembership: site admins and members pass; others get 403. */
export async function requireOrgMember(c: AppContext, org: User, doer: User): Promise<void> {
  if (doer.isAdmin || (await c.var.services.permissions.inOrganization(org, doer)).isMember) return;
  throw new PermissionDeniedError("Must be an organization member");
}

/** An organization in API shape, with the repository count `viewer` is entitled to. */
export async function apiOrg(c: AppContext, org: User, viewer: User | null) {
  return toApiOrg(org, await c.var.services.orgs.reposCount(org, viewer), c.var.settings);
}
