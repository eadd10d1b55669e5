import {
  type AccessMode,
  atLeast,
  InvalidArgumentError,
  isOwnersTeam,
  isRepoUnit,
  NotFoundError,
  type Paged,
  type PageRequest,
  PermissionDeniedError,
  parseAccessMode,
  REPO_UNITS,
  type Repository,
  type RepoUnit,
  type Team,
  type User,
} from "@kiln/domain";
import {
  isUniqueViolation,
  orgs,
  type RepoViewer,
  repositories,
  type TeamValues,
  teams,
  users,
} from "@kiln/storage";
import type { PermissionService } from "../access/permission-service.js";
import { administersRepo } from "../access/repo-rules.js";
import type { ServiceContext } from "../context.js";
import { assertNoBlockBetween } from "../social/block-service.js";
import { lastOwner } from "./org-service.js";

/** What creating or editing a team takes (`CreateTeamOption` / `EditTeamOption`). */
export interface TeamInput {
  readonly name?: string;
  readonly description?: string | null;
  readonly permission?: "read" | "write" | "admin";
  readonly units?: readonly string[];
  readonly unitsMap?: Readonly<Record<string, string>>;
  readonly includesAllRepositories?: boolean | null;
  readonly canCreateOrgRepo?: boolean | null;
}

/** Teams, their members and their repositories (Forgejo's routers/api/v1/org/team.go). */
export class TeamService {
  constructor(
    private readonly ctx: ServiceContext,
    private readonly permissions: PermissionService,
  ) {}

  async list(org: User, page: PageRequest): Promise<Paged<Team>> {
    return teams.listTeams(this.ctx.db, org.id, {}, page);
  }

  async search(org: User, q: string, includeDescription: boolean, page: PageRequest): Promise<Paged<Team>> {
    return teams.listTeams(this.ctx.db, org.id, { keyword: q, includeDescription }, page);
  }

  /** The team with this id; NotFoundError when there is none. */
  async get(id: number): Promise<Team> {
    const team = await teams.findTeamById(this.ctx.db, id);
    if (!team) throw new NotFoundError(`team does not exist [id: ${id}]`);
    return team;
  }

  /** The organization a team belongs to. */
  async orgOf(team: Team): Promise<User> {
    const org = await users.findUserById(this.ctx.db, team.orgId);
    if (!org) throw new NotFoundError();
    return org;
  }

  /** Creates a team (422 for a taken name or missing unit permissions). */
  async create(org: User, input: TeamInput & { name: string }): Promise<Team> {
    const values = teamValues(input, undefined);
    try {
      return await teams.insertTeam(this.ctx.db, org.id, values);
    } catch (err) {
      if (isUniqueViolation(err)) throw teamExists(org, input.name);
      throw err;
    }
  }

  /** Edits a team. The Owners team keeps its name, its owner mode and all repositories. */
  async edit(team: Team, input: TeamInput): Promise<Team> {
    const values = teamValues(input, team);
    try {
      const updated = await teams.updateTeam(this.ctx.db, team.id, values);
      if (!updated) throw new NotFoundError();
      return updated;
    } catch (err) {
      if (isUniqueViolation(err)) throw teamExists({ id: team.orgId }, values.name);
      throw err;
    }
  }

  /** Deletes a team; the Owners team cannot be deleted (422). */
  async delete(team: Team): Promise<void> {
    if (isOwnersTeam(team))
      throw new InvalidArgumentError("the Owners team of an organization cannot be deleted");
    await teams.deleteTeam(this.ctx.db, team.id);
  }

  async members(team: Team, page: PageRequest): Promise<Paged<User>> {
    return teams.listTeamMembers(this.ctx.db, team.id, page);
  }

  async isMember(team: Team, user: User): Promise<boolean> {
    return teams.isTeamMember(this.ctx.db, team.id, user.id);
  }

  /**
   * `doer` adds a user to the team, making them a member of the organization too; 403 when the
   * user and the organization, or the user and the doer, block each other (either way).
   */
  async addMember(team: Team, user: User, doer: User): Promise<void> {
    if (user.type !== "individual") throw new InvalidArgumentError(`${user.name} is an organization`);
    await assertNoBlockBetween(this.ctx.db, [team.orgId, doer.id], user.id);
    await this.ctx.db.transaction().execute(async (trx) => {
      await orgs.addOrgMember(trx, team.orgId, user.id);
      await teams.addTeamMember(trx, team, user.id);
    });
  }

  /**
   * Removes a user from the team; the Owners team keeps at least one member (422). A user left in
   * no team of the organization stops being a member of it, as in Forgejo.
   */
  async removeMember(team: Team, user: User): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      if (!(await teams.isTeamMember(trx, team.id, user.id))) throw new NotFoundError();
      if (isOwnersTeam(team) && (await teams.countTeamMembers(trx, team.id)) <= 1) throw lastOwner(user);
      await teams.removeTeamMember(trx, team.id, user.id);
      if ((await teams.teamsOfMember(trx, team.orgId, user.id)).length === 0)
        await orgs.removeOrgMember(trx, team.orgId, user.id);
    });
  }

  /** The team's repositories (all of the organization's when it includes all of them). */
  async repos(team: Team, viewer: RepoViewer, page: PageRequest): Promise<Paged<Repository>> {
    if (team.includesAllRepositories) {
      return repositories.listVisibleRepositories(this.ctx.db, { ownerId: team.orgId }, viewer, page);
    }
    const ids = [...(await teams.teamRepoIds(this.ctx.db, [team.id]))];
    return repositories.listVisibleRepositories(this.ctx.db, { ids }, viewer, page);
  }

  /** The teams of the repository's organization that cover it (Forgejo's GetRepoTeams). */
  async listForRepo(repo: Repository): Promise<Team[]> {
    return teams.listTeamsOfRepo(this.ctx.db, repo.ownerId, repo.id);
  }

  /** The organization's team with this name (case-insensitive); NotFoundError when none. */
  async byName(orgId: number, name: string): Promise<Team> {
    const team = await teams.findTeamByName(this.ctx.db, orgId, name);
    if (!team) throw new NotFoundError(`team does not exist [name: ${name}]`);
    return team;
  }

  /** Whether the team covers the repository. */
  async hasRepo(team: Team, repo: Repository): Promise<boolean> {
    if (repo.ownerId !== team.orgId) return false;
    if (team.includesAllRepositories) return true;
    return (await teams.teamRepoIds(this.ctx.db, [team.id], repo.id)).size > 0;
  }

  /** Gives the team a repository of its organization; the doer must administer the repository (403). */
  async addRepo(team: Team, repo: Repository, doer: User): Promise<void> {
    await this.checkRepoChange(team, repo, doer);
    await teams.addTeamRepo(this.ctx.db, team, repo.id);
  }

  /** Takes a repository from the team; the doer must administer the repository (403). */
  async removeRepo(team: Team, repo: Repository, doer: User): Promise<void> {
    await this.checkRepoChange(team, repo, doer);
    await teams.removeTeamRepo(this.ctx.db, team.id, repo.id);
  }

  private async checkRepoChange(team: Team, repo: Repository, doer: User): Promise<void> {
    if (repo.ownerId !== team.orgId)
      throw new NotFoundError("repository does not belong to the team's organization");
    if (!administersRepo({ permission: await this.permissions.forRepository(doer, repo), viewer: doer })) {
      throw new PermissionDeniedError("user is nonexistent or has no permission");
    }
  }

  /** Every team the user belongs to, across organizations. */
  async listForUser(viewer: NonNullable<RepoViewer>, page: PageRequest): Promise<Paged<Team>> {
    return teams.listTeamsOfUser(this.ctx.db, viewer, page);
  }
}

/**
 * Forgejo's rules for a team's modes: admin teams (and Owners) get every unit at their mode;
 * otherwise `units_map` gives a mode per unit (and the team-wide mode becomes `none`), or `units`
 * lists units that get the team-wide `permission`. Unknown unit names are ignored.
 */
function teamValues(input: TeamInput, existing: Team | undefined): TeamValues {
  const owners = existing !== undefined && isOwnersTeam(existing);
  let mode: AccessMode = existing?.accessMode ?? "none";
  if (!owners && (input.permission !== undefined || !existing)) {
    mode = parseAccessMode(input.permission ?? "") ?? "none";
    if (!atLeast(mode, "admin") && input.unitsMap && Object.keys(input.unitsMap).length > 0) mode = "none";
  }
  let units: Partial<Record<RepoUnit, AccessMode>>;
  if (atLeast(mode, "admin")) {
    units = Object.fromEntries(REPO_UNITS.map((u) => [u, mode]));
  } else if (input.unitsMap && Object.keys(input.unitsMap).length > 0) {
    units = Object.fromEntries(
      Object.entries(input.unitsMap)
        .filter(([u]) => isRepoUnit(u))
        .map(([u, m]) => [u, parseAccessMode(m) ?? "none"]),
    );
  } else if (input.units && input.units.length > 0) {
    units = Object.fromEntries(input.units.filter(isRepoUnit).map((u) => [u, mode]));
  } else if (existing) {
    units = existing.units;
  } else {
    throw new InvalidArgumentError("units permission should not be empty");
  }
  return {
    name: owners ? existing.name : (input.name ?? existing?.name ?? ""),
    description: input.description ?? existing?.description ?? "",
    accessMode: mode,
    units,
    includesAllRepositories: owners
      ? true
      : (input.includesAllRepositories ?? existing?.includesAllRepositories ?? false),
    canCreateOrgRepo: owners ? true : (input.canCreateOrgRepo ?? existing?.canCreateOrgRepo ?? false),
  };
}

function teamExists(org: { id: number }, name: string): InvalidArgumentError {
  return new InvalidArgumentError(`team already exists [org_id: ${org.id}, name: ${name}]`);
}
