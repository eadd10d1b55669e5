import {
  type AccessMode,
  type AccountType,
  atLeast,
  type CollaboratorMode,
  maxAccess,
  REPO_UNITS,
  type RepoUnit,
  type Visibility,
} from "@kiln/domain";

/** What a user may do on a repository, per unit, and overall (the strongest unit mode). */
export interface RepoPermission {
  readonly mode: AccessMode;
  readonly units: Readonly<Record<RepoUnit, AccessMode>>;
}

/** A team of the owning organization that the viewer belongs to, as it bears on one repository. */
export interface TeamGrant {
  readonly accessMode: AccessMode;
  readonly units: Readonly<Partial<Record<RepoUnit, AccessMode>>>;
  /** Whether the team covers this repository (includes all repositories, or was given it). */
  readonly coversRepo: boolean;
}

/** Everything that decides a permission; the service loads it, `computeRepoPermission` judges it. */
export interface PermissionFacts {
  readonly viewer: { readonly id: number; readonly isAdmin: boolean; readonly isRestricted: boolean } | null;
  readonly repo: { readonly ownerId: number; readonly isPrivate: boolean };
  readonly owner: { readonly type: AccountType; readonly visibility: Visibility };
  /** Whether the viewer is a member of the owning organization. */
  readonly orgMember: boolean;
  readonly collaborator: CollaboratorMode | null;
  /** The viewer's teams in the owning organization. */
  readonly teams: readonly TeamGrant[];
}

function allUnits(mode: AccessMode): RepoPermission {
  return Object.freeze({
    mode,
    units: Object.freeze(
      Object.fromEntries(REPO_UNITS.map((u) => [u, mode])) as Record<RepoUnit, AccessMode>,
    ),
  });
}

/** No access to anything. */
export const NO_PERMISSION: RepoPermission = allUnits("none");

/** Every unit at `owner`: site admins and owners. */
const OWNER_PERMISSION: RepoPermission = allUnits("owner");

function withAll(mode: AccessMode): RepoPermission {
  return mode === "owner" ? OWNER_PERMISSION : mode === "none" ? NO_PERMISSION : allUnits(mode);
}

/**
 * Forgejo's repository permission rules, in one place (models/perm/access GetUserRepoPermission):
 * site admins and the owner hold `owner`; an owner the viewer may not see hides the repository
 * entirely; public repositories give everyone (but restricted users) read; collaborators get their
 * mode on every unit; teams of the owning organization that cover the repository give their
 * per-unit modes (admin and owner teams: every unit). The strongest grant wins per unit.
 * Collaborators keep their access even when the owner is hidden from them.
 */
export function computeRepoPermission(f: PermissionFacts): RepoPermission {
  const { viewer } = f;
  if (viewer?.isAdmin) return withAll("owner");
  if (viewer && viewer.id === f.repo.ownerId) return withAll("owner");
  // Collaborators keep their access to a repository of a private user or organization.
  if (!ownerVisible(f) && !f.collaborator) return NO_PERMISSION;

  const units = Object.fromEntries(REPO_UNITS.map((u) => [u, "none"])) as Record<RepoUnit, AccessMode>;
  const grantAll = (mode: AccessMode) => {
    for (const u of REPO_UNITS) units[u] = maxAccess(units[u], mode);
  };
  if (!f.repo.isPrivate && !viewer?.isRestricted) grantAll("read");
  if (viewer) {
    if (f.collaborator) grantAll(f.collaborator);
    for (const team of f.teams) {
      if (!team.coversRepo) continue;
      if (atLeast(team.accessMode, "admin")) {
        grantAll(team.accessMode);
        continue;
      }
      for (const u of REPO_UNITS) {
        const mode = team.units[u];
        if (mode) units[u] = maxAccess(units[u], mode);
      }
    }
  }
  const mode = REPO_UNITS.reduce<AccessMode>((m, u) => maxAccess(m, units[u]), "none");
  return { mode, units };
}

/** Whether the viewer may see the repository's owner at all (Forgejo's HasOrgOrUserVisible). */
function ownerVisible(f: PermissionFacts): boolean {
  const { viewer, owner } = f;
  if (
    owner.visibility === "public" &&
    !(viewer?.isRestricted && owner.type === "organization" && !f.orgMember)
  )
    return true;
  if (!viewer) return false;
  if (f.orgMember) return true;
  if (viewer.isRestricted) return false;
  return owner.visibility === "limited";
}

/** Whether the permission allows reading the unit. */
export function canRead(p: RepoPermission, unit: RepoUnit): boolean {
  return atLeast(p.units[unit], "read");
}

/** Whether the permission allows writing to the unit. */
export function canWrite(p: RepoPermission, unit: RepoUnit): boolean {
  return atLeast(p.units[unit], "write");
}

/** Whether the permission allows reading anything at all (the repository exists for this user). */
export function hasAccess(p: RepoPermission): boolean {
  return atLeast(p.mode, "read");
}

/** Repository administration (settings, collaborators, protections). */
export function isRepoAdmin(p: RepoPermission): boolean {
  return atLeast(p.mode, "admin");
}
