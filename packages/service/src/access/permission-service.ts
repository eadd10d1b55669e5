import type { Repository, Team, User } from "@kiln/domain";
import { teams } from "@kiln/storage";
import type { ServiceContext } from "../context.js";
import type { AccessService } from "./access-service.js";
import { actorFor } from "./actor.js";
import type { OrgPermission } from "./org-permission.js";
import type { RepoPermission } from "./repo-permission.js";

/**
 * The single answer to "what may user U do on repository R (per unit)?" and "what is U in
 * organization O?". Every route that checks access asks this service.
 */
export class PermissionService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly access: AccessService,
  ) {}

  /**
   * The viewer's permission on a repository (anonymous when `viewer` is null), with every scope:
   * the access module's answer, for services that judge a user rather than a request.
   */
  async forRepository(viewer: User | null, repo: Repository): Promise<RepoPermission> {
    return this.access.permissionOn(actorFor(viewer), repo);
  }

  /** A user's standing in an organization: membership, teams, and the derived permission. */
  inOrganization(
    org: User,
    user: User,
  ): Promise<{ isMember: boolean; teams: Team[]; permission: OrgPermission }> {
    return this.access.standing(user, org);
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
