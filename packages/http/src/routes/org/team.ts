import { api, type Team, type User } from "@kiln/domain";
import { signedInViewer, toApiTeam } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { pagedJson, pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound, validationError } from "../responses.js";
import { apiOrg } from "./access.js";
import {
  orgAddTeamMember,
  orgListTeamMember,
  orgListTeamMembers,
  orgRemoveTeamMember,
} from "./team-member.js";
import {
  orgAddTeamRepository,
  orgListTeamRepo,
  orgListTeamRepos,
  orgRemoveTeamRepository,
} from "./team-repo.js";

/**
 * Forgejo's routers/api/v1/org/team.go: teams (their members are in team-member.ts, their
 * repositories in team-repo.ts; `teamRoutes` keeps all three in registration order).
 */

const orgParam = v.object({ org: v.string() });
const teamParam = v.object({ id: qs.int("id of the team") });

async function apiTeam(c: AppContext, team: Team, _viewer: User) {
  const org = await c.get("services").teams.orgOf(team);
  return toApiTeam(team, await apiOrg(c, org));
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
  org: "member",
  scopes: ["organization"],
  params: orgParam,
  query: v.object(pageQuery),
  responses: {
    200: { description: "TeamList", schema: v.array(api.Team) },
    ...notFound,
  },
  async handler(c, { query, org: { org } }) {
    const apiOrganization = await apiOrg(c, org);
    return pagedJson(
      c,
      query,
      (page) => c.get("services").teams.list(org, page),
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
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  body: api.CreateTeamOption,
  responses: {
    201: { description: "Team", schema: api.Team },
    ...notFound,
    ...validationError,
  },
  async handler(c, { body, org: { org } }) {
    const team = await c.get("services").teams.create(org, { ...teamInput(body), name: body.name });
    return c.json(toApiTeam(team, await apiOrg(c, org)), 201);
  },
});

export const teamSearch = route({
  method: "get",
  path: "/orgs/{org}/teams/search",
  operationId: "teamSearch",
  tags: ["organization"],
  summary: "Search for teams within an organization",
  access: "signed-in",
  org: "member",
  scopes: ["organization"],
  params: orgParam,
  query: v.object({
    q: v.optional(qs.string("keywords to search")),
    include_desc: v.optional(qs.bool("include search within team description (defaults to true)")),
    ...pageQuery,
  }),
  responses: { 200: { description: "SearchResults of a successful search", schema: api.TeamSearchResults } },
  async handler(c, { query, org: { org } }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").teams.search(org, query.q ?? "", query.include_desc ?? true, page);
    setPagingHeaders(c, page, list.total);
    const apiOrganization = await apiOrg(c, org);
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
    ...notFound,
  },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    const { team } = await c.get("services").access.team(c.get("actor"), params.id);
    return c.json(await apiTeam(c, team, user));
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
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, principal }) {
    const { user } = requirePrincipal(principal);
    const { team } = await c.get("services").access.team(c.get("actor"), params.id, "owner");
    return c.json(await apiTeam(c, await c.get("services").teams.edit(team, teamInput(body)), user));
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
    ...notFound,
    ...validationError,
  },
  async handler(c, { params }) {
    const { team } = await c.get("services").access.team(c.get("actor"), params.id, "owner");
    await c.get("services").teams.delete(team);
    return c.body(null, 204);
  },
});

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
      (page) => c.get("services").teams.listForUser(signedInViewer(c.get("actor")), page),
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
