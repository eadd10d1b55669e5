import type { Repository, Team, User } from "@kiln/domain";
import { collaborations, orgs, teams, users } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import { computeOrgPermission, type OrgPermission } from "./org-permission.js";
import { computeRepoPermission, NO_PERMISSION, type RepoPermission } from "./repo-permission.js";

/**
 * The single answer to "what may user U do on repository R (per unit)?" and "what is U in
 * organization O?". Every route that checks access asks this service.
 */
export class PermissionService {
  constructor(private readonly ctx: ServiceContext) {}

  /** The viewer's permission on a repository (anonymous when `viewer` is null). */
  async forRepository(viewer: User | null, repo: Repository): Promise<RepoPermission> {
    const owner = await users.findUserById(this.ctx.db, repo.ownerId);
    if (!owner) return NO_PERMISSION;
    let orgMember = false;
    let collaborator = null;
    let grants: Team[] = [];
    let covered = new Set<number>();
    if (viewer) {
      collaborator = (await collaborations.findCollaboratorMode(this.ctx.db, repo.id, viewer.id)) ?? null;
      if (owner.type === "organization") {
        orgMember = (await orgs.findOrgMembership(this.ctx.db, owner.id, viewer.id)) !== undefined;
        grants = await teams.teamsOfMember(this.ctx.db, owner.id, viewer.id);
        covered = await teams.teamRepoIds(
          this.ctx.db,
          grants.map((t) => t.id),
          repo.id,
        );
      }
    }
    return computeRepoPermission({
      viewer: viewer ? { id: viewer.id, isAdmin: viewer.isAdmin, isRestricted: viewer.isRestricted } : null,
      repo: { ownerId: repo.ownerId, isPrivate: repo.isPrivate },
      owner: { type: owner.type, visibility: owner.visibility },
      orgMember,
      collaborator,
      teams: grants.map((t) => ({
        accessMode: t.accessMode,
        units: t.units,
        coversRepo: t.includesAllRepositories || covered.has(repo.id),
      })),
    });
  }

  /** A user's standing in an organization: membership, teams, and the derived permission. */
  async inOrganization(
    org: User,
    user: User,
  ): Promise<{ isMember: boolean; teams: Team[]; permission: OrgPermission }> {
    const membership = await orgs.findOrgMembership(this.ctx.db, org.id, user.id);
    const memberTeams = membership ? await teams.teamsOfMember(this.ctx.db, org.id, user.id) : [];
    return {
      isMember: membership !== undefined,
      teams: memberTeams,
      permission: computeOrgPermission(memberTeams),
    };
  }

  /** Whether the user is in the organization's Owners team. */
  async isOrgOwner(org: User, user: User): Promise<boolean> {
    return (await this.inOrganization(org, user)).permission.isOwner;
  }

  /**
   * Whether the user belongs to any of the named teams of the organization (how branch protections
   * and merge whitelists, which name teams, are checked).
   */
  async isInTeams(orgId: number, user: User, teamNames: readonly string[]): Promise<boolean> {
    if (teamNames.length === 0) return false;
    const wanted = new Set(teamNames.map((n) => n.toLowerCase()));
    const mine = await teams.teamsOfMember(this.ctx.db, orgId, user.id);
    return mine.some((t) => wanted.has(t.lowerName));
  }
}
