import type { User } from "@kiln/domain";
import { isSelfOrAdmin } from "./account-rules.js";

/** The parts of a user that owner rules look at. */
type Doer = Pick<User, "id" | "isAdmin">;
/** The parts of an owner (a user or an organization) that owner rules look at. */
type Owner = Pick<User, "id" | "type">;

/** Whether `doer` may create an organization: site admins, and users allowed to (`allow_create_organization`). */
export function mayCreateOrg(doer: Pick<User, "isAdmin" | "allowCreateOrganization">): boolean {
  return doer.allowCreateOrganization || doer.isAdmin;
}

/** Whether `doer` may migrate from a local path on the server: site admins and users allowed to. */
export function mayImportLocal(doer: Pick<User, "isAdmin" | "allowImportLocal">): boolean {
  return doer.isAdmin || doer.allowImportLocal;
}

/**
 * Whether `doer` may put a repository in `owner`'s namespace — create, receive by transfer or
 * accept one (Forgejo's CanCreateRepo / CanCreateOrgRepo): their own namespace, an organization
 * where one of their teams may create repositories (`orgGrants`, as the caller found it), and
 * anywhere for site admins.
 */
export function mayCreateRepoFor(doer: Doer, owner: Owner, orgGrants: boolean): boolean {
  if (owner.type === "organization") return doer.isAdmin || orgGrants;
  return isSelfOrAdmin(doer, owner);
}

/** Whether `doer` may create repositories beyond the owner's creation limit: site admins only. */
export function bypassesRepoLimit(doer: Pick<User, "isAdmin">): boolean {
  return doer.isAdmin;
}

/**
 * Whether `doer` may fork into `owner`: any user into their own namespace (the creation rule then
 * decides), into an organization only its members (`isMember`) and site admins.
 */
export function mayForkInto(doer: Doer, owner: Owner, isMember: boolean): boolean {
  return owner.type !== "organization" || doer.isAdmin || isMember;
}

/**
 * Whether `doer` may generate a repository from a template for `owner`: another user's namespace
 * only as a site admin; organizations are left to {@link mayCreateRepoFor}.
 */
export function mayGenerateFor(doer: Doer, owner: Owner): boolean {
  return owner.type === "organization" || isSelfOrAdmin(doer, owner);
}
