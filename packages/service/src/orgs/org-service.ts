import {
  InvalidArgumentError,
  isValidEmail,
  NotFoundError,
  OWNERS_TEAM,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  REPO_UNITS,
  type User,
  usernameProblem,
  type Visibility,
} from "@kiln/domain";
import { isUniqueViolation, orgs, type RepoViewer, repositories, teams, users } from "@kiln/storage";
import { orgNotFound } from "../access/access-service.js";
import { isSelfOrAdmin } from "../access/account-rules.js";
import type { OrgPermission } from "../access/org-permission.js";
import { seesOrgInside } from "../access/org-permission.js";
import { mayCreateOrg } from "../access/owner-rules.js";
import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";

/** What creating or editing an organization sets (`CreateOrgOption` / `EditOrgOption`). */
export interface OrgInput {
  readonly fullName?: string;
  readonly email?: string;
  readonly description?: string;
  readonly website?: string;
  readonly location?: string;
  readonly visibility?: Visibility;
  readonly repoAdminChangeTeamAccess?: boolean;
}

/** The outcome of Forgejo's membership check for a non-member, which redirects to the public check. */
export type MembershipAnswer = "member" | "not-member" | "ask-public";

/** Organizations and their members (Forgejo's routers/api/v1/org/org.go and member.go). */
export class OrgService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
  ) {}

  /** Creates an organization with its Owners team, the creator as its first owner. */
  async create(doer: User, name: string, input: OrgInput): Promise<User> {
    if (!mayCreateOrg(doer)) throw new PermissionDeniedError("Create organization not allowed");
    const problem = usernameProblem(name);
    if (problem) throw new InvalidArgumentError(problem);
    if (input.email && !isValidEmail(input.email))
      throw new InvalidArgumentError(`e-mail invalid [email: ${input.email}]`);
    return this.ctx.db.transaction().execute(async (trx) => {
      if (await users.findUserByName(trx, name))
        throw new InvalidArgumentError(`user already exists [name: ${name}]`);
      let org: User;
      try {
        org = await users.insertUser(trx, {
          name,
          lowerName: name.toLowerCase(),
          type: "organization",
          fullName: input.fullName ?? "",
          email: input.email ?? "",
          description: input.description ?? "",
          website: input.website ?? "",
          location: input.location ?? "",
          visibility: input.visibility ?? "public",
          repoAdminChangeTeamAccess: input.repoAdminChangeTeamAccess ?? false,
        });
      } catch (err) {
        if (isUniqueViolation(err)) throw new InvalidArgumentError(`user already exists [name: ${name}]`);
        throw err;
      }
      const owners = await teams.insertTeam(trx, org.id, {
        name: OWNERS_TEAM,
        description: "",
        accessMode: "owner",
        units: Object.fromEntries(REPO_UNITS.map((u) => [u, "owner"])),
        includesAllRepositories: true,
        canCreateOrgRepo: true,
      });
      await teams.addTeamMember(trx, owners, doer.id);
      await orgs.addOrgMember(trx, org.id, doer.id);
      return org;
    });
  }

  /** How many of the organization's repositories `viewer` can see (Kiln's `repos_count`). */
  async reposCount(org: User, viewer: RepoViewer): Promise<number> {
    return repositories.countVisibleRepositories(this.ctx.db, org.id, viewer);
  }

  /** Edits an organization's profile and visibility. */
  async edit(org: User, input: OrgInput): Promise<User> {
    if (input.email && !isValidEmail(input.email))
      throw new InvalidArgumentError(`e-mail invalid [email: ${input.email}]`);
    const updated = await users.updateUser(
      this.ctx.db,
      org.id,
      Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)),
    );
    if (!updated) throw orgNotFound(org.name);
    return updated;
  }

  /** Deletes an organization; refused (422) while it owns repositories, as Forgejo. */
  async delete(org: User): Promise<void> {
    const count = await repositories.countOwnedRepositories(this.ctx.db, org.id);
    if (count > 0) {
      throw new InvalidArgumentError(
        `organization still has ownership of repositories [uid: ${org.id}, count: ${count}]`,
      );
    }
    await users.deleteUser(this.ctx.db, org.id);
  }

  /** `GET /orgs`: organizations the viewer may see (the access module's fragment). */
  async listVisible(viewer: RepoViewer, page: PageRequest): Promise<Paged<User>> {
    return orgs.listOrgs(this.ctx.db, viewer, page);
  }

  /** `GET /user/orgs`: the organizations the user belongs to (a `public-only` token: public ones). */
  async listMine(viewer: NonNullable<RepoViewer>, page: PageRequest): Promise<Paged<User>> {
    return orgs.listUserOrgs(this.ctx.db, viewer.id, viewer, {}, page);
  }

  /**
   * `GET /users/{username}/orgs`: the user's organizations as `viewer` may see them. The user and
   * site admins see every membership; others see public memberships, of organizations visible to them.
   */
  async listOfUser(target: User, viewer: RepoViewer, page: PageRequest): Promise<Paged<User>> {
    const everyMembership = isSelfOrAdmin(viewer, target);
    return orgs.listUserOrgs(
      this.ctx.db,
      target.id,
      viewer,
      { publicMembershipsOnly: !everyMembership },
      page,
    );
  }

  /** What `user` may do in the organization. */
  async permissionsOf(org: User, user: User): Promise<OrgPermission> {
    return (await this.permissions.inOrganization(org, user)).permission;
  }

  /** `GET /orgs/{org}/members`: all members for members and site admins, public members for others. */
  async listMembers(org: User, viewer: User | null, page: PageRequest): Promise<Paged<User>> {
    const member = viewer
      ? (await orgs.findOrgMembership(this.ctx.db, org.id, viewer.id)) !== undefined
      : false;
    return orgs.listOrgMembers(this.ctx.db, org.id, { publicOnly: !seesOrgInside(viewer, member) }, page);
  }

  /**
   * Forgejo's `GET /orgs/{org}/members/{username}`: members and site admins get the answer; a
   * non-member asking about themselves gets "not a member"; anyone else is sent to the public check.
   */
  async checkMembership(org: User, target: User, viewer: User | null): Promise<MembershipAnswer> {
    if (viewer) {
      const viewerIsMember = (await orgs.findOrgMembership(this.ctx.db, org.id, viewer.id)) !== undefined;
      if (seesOrgInside(viewer, viewerIsMember)) {
        return (await orgs.findOrgMembership(this.ctx.db, org.id, target.id)) ? "member" : "not-member";
      }
      if (viewer.id === target.id) return "not-member";
    }
    return "ask-public";
  }

  /** Removes a member (and their team memberships); the last owner cannot be removed (422). */
  async removeMember(org: User, target: User): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      if (!(await orgs.findOrgMembership(trx, org.id, target.id))) throw new NotFoundError();
      const owners = await teams.findOwnersTeam(trx, org.id);
      if (
        owners &&
        (await teams.isTeamMember(trx, owners.id, target.id)) &&
        (await teams.countTeamMembers(trx, owners.id)) <= 1
      ) {
        throw lastOwner(target);
      }
      await orgs.removeOrgMember(trx, org.id, target.id);
    });
  }

  /** `GET /orgs/{org}/public_members`. */
  async listPublicMembers(org: User, page: PageRequest): Promise<Paged<User>> {
    return orgs.listOrgMembers(this.ctx.db, org.id, { publicOnly: true }, page);
  }

  /** Whether the user's membership is public. */
  async isPublicMember(org: User, target: User): Promise<boolean> {
    return (await orgs.findOrgMembership(this.ctx.db, org.id, target.id))?.isPublic === true;
  }

  /** Publicizes or conceals one's own membership (403 for anyone else's, as Forgejo). */
  async setPublicMembership(org: User, target: User, doer: User, isPublic: boolean): Promise<void> {
    if (target.id !== doer.id) {
      throw new PermissionDeniedError(
        isPublic ? "Cannot publicize another member" : "Cannot conceal another member",
      );
    }
    if (!(await orgs.findOrgMembership(this.ctx.db, org.id, target.id))) {
      throw new PermissionDeniedError("Must be an organization member");
    }
    await orgs.setMembershipPublic(this.ctx.db, org.id, target.id, isPublic);
  }
}

/** The error for taking away an organization's last owner. */
export function lastOwner(user: User): InvalidArgumentError {
  return new InvalidArgumentError(`user is the last member of owner team [uid: ${user.id}]`);
}
