import { type AccessMode, atLeast, maxAccess, type Team, type User } from "@kiln/domain";
import type { RepoViewer } from "@kiln/storage";

/** What a user may do in an organization, as Forgejo's `OrganizationPermissions`. */
export interface OrgPermission {
  readonly isOwner: boolean;
  readonly isAdmin: boolean;
  readonly canWrite: boolean;
  readonly canRead: boolean;
  readonly canCreateRepository: boolean;
}

/**
 * Forgejo's GetOrgUserMaxAuthorizeLevel: the strongest team mode (a team given units only counts
 * by its strongest unit) decides read/write/admin/owner; creating repositories needs ownership or a
 * team with `can_create_org_repo`.
 */
export function computeOrgPermission(teams: readonly Team[]): OrgPermission {
  let level: AccessMode = "none";
  for (const t of teams) {
    level = maxAccess(level, t.accessMode);
    for (const mode of Object.values(t.units)) if (mode) level = maxAccess(level, mode);
  }
  return {
    isOwner: atLeast(level, "owner"),
    isAdmin: atLeast(level, "admin"),
    canWrite: atLeast(level, "write"),
    canRead: atLeast(level, "read"),
    canCreateRepository: teams.some((t) => t.accessMode === "owner" || t.canCreateOrgRepo),
  };
}

/**
 * Whether `viewer` may see an account (Forgejo's HasOrgOrUserVisible): public ones everyone,
 * limited ones signed-in users, private ones only themselves and members; restricted users only
 * their own organizations; site admins everything. A `public-only` viewer sees only public
 * accounts. Storage's `accountVisibleTo` is the same rule in SQL, for lists.
 */
export function canSeeAccount(
  viewer: RepoViewer,
  account: Pick<User, "id" | "type" | "visibility">,
  viewerIsMember: boolean,
): boolean {
  if (viewer?.publicOnly && account.visibility !== "public") return false;
  if (viewer?.isAdmin || viewer?.id === account.id) return true;
  if (viewer?.isRestricted && account.type === "organization") return viewerIsMember;
  if (account.visibility === "public") return true;
  if (!viewer) return false;
  return account.visibility === "limited" || viewerIsMember;
}

/**
 * Whether `viewer` sees an organization from the inside (Forgejo's IsOrgMember checks, which site
 * admins pass): every member rather than the public ones, every membership answer, and the feed
 * entries of its private repositories.
 */
export function seesOrgInside(
  viewer: { readonly isAdmin: boolean } | null,
  viewerIsMember: boolean,
): boolean {
  return viewerIsMember || viewer?.isAdmin === true;
}
