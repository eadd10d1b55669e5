import { api, NotFoundError, type Team, type User } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { toApiTeam } from "../../convert/org.js";
import { toApiRepository } from "../../convert/repository.js";
import { toApiUser } from "../../convert/user.js";
import type { AppContext } from "../../env.js";
import { pagedJson, pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { apiOrg, requireOrgMember, requireOrgOwner } from "./access.js";

/** Forgejo's routers/api/v1/org/team.go: teams, their members and repositories. */

const orgParam = v.object({ org: v.string() });
const teamParam = v.object({ id: qs.int("id of the team") });

async function apiTeam(c: AppContext, team: Team, viewer: User) {
  const org = await c.var.services.teams.orgOf(team);
  return toApiTeam(team, await apiOrg(c, org, viewer));
}

/** The team of `/teams/{id}…`, if the doer may look at it (Forgejo's reqTeamMembership). */
async function visibleTeam(c: AppContext, id: number, doer: User): Promise<Team> {
  const team = await c.var.services.teams.get(id);
  await c.var.services.teams.requireVisible(team, doer);
  return team;
}

function teamInput(
  body: v.InferOutput<typeof api.EditTeamOption> | v.InferOutput<typeof api.CreateTeamOption>,
) {
  return {
    name: body.name,
    description: body.description,
    permission: body.permission,
    units: body.units,
    unitsMap: body.units_map,
    includesAllRepositories: body.includes_all_repositories,
    canCreateOrgRepo: body.can_create_org_repo,
  };
}

export const orgListTeams = route({
  method: "get",
  path: "/orgs/{org}/teams",
  operationId: "orgListTeams",
  tags: ["organization"],
  summary: "List an organization's teams",
  access: "signed-in",
  scopes: ["organization"],
  params: orgParam,
  query: v.object(pageQuery),
  responses: {
    200: { description: "TeamList", schema: v.array(api.Team) },
    404: { description: "APINotFound", schema: api.APINotFound },
  },
  async handler(c, { params, query, principal }) {
    const { user } = requirePrincipal(principal);
    const org = await c.var.services.orgs.getVisible(params.org, user);
    await requireOrgMember(c, org, user);
    const apiOrganization = await apiOrg(c, org, user);
    return pagedJson(
      c,
      query,
      (page) => c.var.services.teams.list(org, page),
      (t) => toApiTeam(t, apiOrganization),
    );
  },
});

export const orgCreateTeam = route({
  method: "post",
  path: "/orgs/{org}/teams",
  operationId: "orgCreateTeam",
  tags: ["organization"],
  summary: "Create a team",
  access: "signed-in",
  scopes: ["organization"],
  params: orgParam,
  body: api.CreateTeamOption,
  responses: {
    201: { description: "Team", schema: api.Team },
    404: { description: "APINotFound", schema: api.APINotFound },
    422: { description: "APIValidationError", schema: api.APIError },
  },
  async handler(c, { params, body, principal }) {
    const { user } = requirePrincipal(principal);
    const org = await c.var.services.orgs.getVisible(params.org, user);
    await requireOrgMember(c, org, user);
    await requireOrgOwner(c, org, user);
    const team = await c.var.services.teams.create(org, { ...teamInput(body), name: body.name });
    return c.json(toApiTeam(team, await apiOrg(c, org, user)), 201);
  },
});

export const teamSearch = route({
  method: "get",
  path: "/orgs/{org}/teams/search",
  operationId: "teamSearch",
  tags: ["organization"],
  summary: "Search for teams within an organization",
  access: "signed-in",
  scopes: ["organization"],
  params: orgParam,
  query: v.object({
    q: v.optional(qs.string("keywords to search")),
    include_desc: v.optional(qs.bool("include search within team description (defaults to true)")),
    ...pageQuery,
  }),
  responses: { 200: { description: "SearchResults of a successful search", schema: api.TeamSearchResults } },
  async handler(c, { params, query, principal }) {
    const { user } = requirePrincipal(principal);
    const org = await c.var.services.orgs.getVisible(params.org, user);
    await requireOrgMember(c, org, user);
    const page = pageRequest(query, c.var.settings.api);
    const list = await c.var.services.teams.search(org, query.q ?? "", query.include_desc ?? true, page);
    setPagingHeaders(c, page, list.total);
    const apiOrganization = await apiOrg(c, org, user);
    return c.json({ ok: true, data: list.items.map((t) => toApiTeam(t, apiOrganization)) });
  },
});

export const orgGetTeam = route({
  method: "get",
  path: "/teams/{id}",
  operationId: "orgGetTeam",
  tags: ["organization"],
  summary: "Get a team",
  access: "signed-in",
  scopes: ["organization"],
  params: teamParam,
  responses: {
    200: { description: "Team", schema: api.Team },
    404: { description: "APINotFound", schema: api.APINotFound },
  },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    return c.json(await apiTeam(c, await visibleTeam(c, params.id, user), user));
  },
});

export const orgEditTeam = route({
  method: "patch",
  path: "/teams/{id}",
  operationId: "orgEditTeam",
  tags: ["organization"],
  summary: "Edit a team",
  access: "signed-in",
  scopes: ["organization"],
  params: teamParam,
  body: api.EditTeamOption,
  responses: {
    200: { description: "Team", schema: api.Team },
    404: { description: "APINotFound", schema: api.APINotFound },
    422: { description: "APIValidationError", schema: api.APIError },
  },
  async handler(c, { params, body, principal }) {
    const { user } = requirePrincipal(principal);
    const team = await visibleTeam(c, params.id, user);
    await requireOrgOwner(c, await c.var.services.teams.orgOf(team), user);
    return c.json(await apiTeam(c, await c.var.services.teams.edit(team, teamInput(body)), user));
  },
});

export const orgDeleteTeam = route({
  method: "delete",
  path: "/teams/{id}",
  operationId: "orgDeleteTeam",
  tags: ["organization"],
  summary: "Delete a team",
  access: "signed-in",
  scopes: ["organization"],
  params: teamParam,
  responses: {
    204: { description: "team deleted", schema: "empty" },
    404: { description: "APINotFound", schema: api.APINotFound },
    422: { description: "APIValidationError", schema: api.APIError },
  },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    const team = await visibleTeam(c, params.id, user);
    await requireOrgOwner(c, await c.var.services.teams.orgOf(team), user);
    await c.var.services.teams.delete(team);
    return c.body(null, 204);
  },
});

export const orgListTeamMembers = route({
  method: "get",
  path: "/teams/{id}/members",
  operationId: "orgListTeamMembers",
  tags: ["organization"],
  summary: "List a team's members",
  access: "signed-in",
  scopes: ["organization"],
  params: teamParam,
  query: v.object(pageQuery),
  responses: {
    200: { description: "UserList", schema: v.array(api.User) },
    404: { description: "APINotFound", schema: api.APINotFound },
  },
  async handler(c, { params, query, principal }) {
    const { user } = requirePrincipal(principal);
    const team = await visibleTeam(c, params.id, user);
    return pagedJson(
      c,
      query,
      (page) => c.var.services.teams.members(team, page),
      (u) => toApiUser(u, user, c.var.settings),
    );
  },
});

const teamUser = v.object({ id: qs.int("id of the team"), username: v.string() });

export const orgListTeamMember = route({
  method: "get",
  path: "/teams/{id}/members/{username}",
  operationId: "orgListTeamMember",
  tags: ["organization"],
  summary: "List a particular member of team",
  access: "signed-in",
  scopes: ["organization"],
  params: teamUser,
  responses: {
    200: { description: "User", schema: api.User },
    404: { description: "APINotFound", schema: api.APINotFound },
  },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    const team = await visibleTeam(c, params.id, user);
    const target = await c.var.services.users.getVisible(params.username, user);
    if (!(await c.var.services.teams.isMember(team, target))) throw new NotFoundError();
    return c.json(toApiUser(target, user, c.var.settings));
  },
});

function membership(method: "put" | "delete", operationId: string, summary: string) {
  return route({
    method,
    path: "/teams/{id}/members/{username}",
    operationId,
    tags: ["organization"],
    summary,
    access: "signed-in",
    scopes: ["organization"],
    params: teamUser,
    responses: {
      204: { description: "membership changed", schema: "empty" },
      404: { description: "APINotFound", schema: api.APINotFound },
      422: { description: "APIValidationError", schema: api.APIError },
    },
    async handler(c, { params, principal }) {
      const { user } = requirePrincipal(principal);
      const team = await visibleTeam(c, params.id, user);
      await requireOrgOwner(c, await c.var.services.teams.orgOf(team), user);
      const target = await c.var.services.users.getVisible(params.username, user);
      if (method === "put") await c.var.services.teams.addMember(team, target);
      else await c.var.services.teams.removeMember(team, target);
      return c.body(null, 204);
    },
  });
}

export const orgAddTeamMember = membership("put", "orgAddTeamMember", "Add a team member");
export const orgRemoveTeamMember = membership("delete", "orgRemoveTeamMember", "Remove a team member");

export const orgListTeamRepos = route({
  method: "get",
  path: "/teams/{id}/repos",
  operationId: "orgListTeamRepos",
  tags: ["organization"],
  summary: "List a team's repos",
  access: "signed-in",
  scopes: ["organization"],
  params: teamParam,
  query: v.object(pageQuery),
  responses: {
    200: { description: "RepositoryList", schema: v.array(api.Repository) },
    404: { description: "APINotFound", schema: api.APINotFound },
  },
  async handler(c, { params, query, principal }) {
    const { user } = requirePrincipal(principal);
    const team = await visibleTeam(c, params.id, user);
    const org = await c.var.services.teams.orgOf(team);
    return pagedJson(
      c,
      query,
      (page) => c.var.services.teams.repos(team, user, page),
      async (repo) =>
        toApiRepository(
          repo,
          org,
          user,
          await c.var.services.permissions.forRepository(user, repo),
          c.var.settings,
        ),
    );
  },
});

const teamRepo = v.object({ id: qs.int("id of the team"), org: v.string(), repo: v.string() });

/** The repository `{org}/{repo}` of `/teams/{id}/repos/{org}/{repo}`, if the doer may see it. */
async function teamRepoTarget(c: AppContext, params: v.InferOutput<typeof teamRepo>, doer: User) {
  const team = await visibleTeam(c, params.id, doer);
  const org = await c.var.services.orgs.getVisible(params.org, doer);
  const repo = await c.var.services.repositories.getVisible(org, params.repo, doer);
  return { team, org, repo };
}

export const orgListTeamRepo = route({
  method: "get",
  path: "/teams/{id}/repos/{org}/{repo}",
  operationId: "orgListTeamRepo",
  tags: ["organization"],
  summary: "List a particular repo of team",
  access: "signed-in",
  scopes: ["organization"],
  params: teamRepo,
  responses: {
    200: { description: "Repository", schema: api.Repository },
    404: { description: "APINotFound", schema: api.APINotFound },
  },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    const { team, org, repo } = await teamRepoTarget(c, params, user);
    if (!(await c.var.services.teams.hasRepo(team, repo))) throw new NotFoundError();
    const permission = await c.var.services.permissions.forRepository(user, repo);
    return c.json(toApiRepository(repo, org, user, permission, c.var.settings));
  },
});

function teamRepoChange(method: "put" | "delete", operationId: string, summary: string) {
  return route({
    method,
    path: "/teams/{id}/repos/{org}/{repo}",
    operationId,
    tags: ["organization"],
    summary,
    access: "signed-in",
    scopes: ["organization"],
    params: teamRepo,
    responses: {
      204: { description: "repository access changed", schema: "empty" },
      403: { description: "APIForbiddenError", schema: api.APIError },
      404: { description: "APINotFound", schema: api.APINotFound },
    },
    async handler(c, { params, principal }) {
      const { user } = requirePrincipal(principal);
      const { team, repo } = await teamRepoTarget(c, params, user);
      if (method === "put") await c.var.services.teams.addRepo(team, repo, user);
      else await c.var.services.teams.removeRepo(team, repo, user);
      return c.body(null, 204);
    },
  });
}

export const orgAddTeamRepository = teamRepoChange(
  "put",
  "orgAddTeamRepository",
  "Add a repository to a team",
);
export const orgRemoveTeamRepository = teamRepoChange(
  "delete",
  "orgRemoveTeamRepository",
  "Remove a repository from a team",
);

export const userListTeams = route({
  method: "get",
  path: "/user/teams",
  operationId: "userListTeams",
  tags: ["user"],
  summary: "List all the teams a user belongs to",
  access: "signed-in",
  scopes: ["user"],
  query: v.object(pageQuery),
  responses: { 200: { description: "TeamList", schema: v.array(api.Team) } },
  async handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    return pagedJson(
      c,
      query,
      (page) => c.var.services.teams.listForUser(user, page),
      (t) => apiTeam(c, t, user),
    );
  },
});

export const teamRoutes = [
  orgListTeams,
  orgCreateTeam,
  teamSearch,
  orgGetTeam,
  orgEditTeam,
  orgDeleteTeam,
  orgListTeamMembers,
  orgListTeamMember,
  orgAddTeamMember,
  orgRemoveTeamMember,
  orgListTeamRepos,
  orgListTeamRepo,
  orgAddTeamRepository,
  orgRemoveTeamRepository,
  userListTeams,
];
