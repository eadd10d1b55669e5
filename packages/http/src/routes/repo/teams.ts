import { api, InvalidArgumentError, MethodNotAllowedError, NotFoundError, type Team } from "@kiln/domain";
import { type RepoAccess, toApiTeam } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { apiOrg } from "../org/access.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/teams.go: the teams of an organization's repository. */

const teamParams = v.object({ ...repoParams, team: qs.string("team name") });
const notAnOrg = { 405: { description: "APIError", schema: api.APIError } } as const;

/**
 * The repository's owner as an organization (Forgejo answers 405 for a user's repository), and
 * the caller one of its members: an organization's teams are shown to its members only, as Kiln's
 * team routes do (Forgejo shows them to every reader of the repository).
 */
async function requireOrgRepo(c: AppContext, repo: RepoAccess): Promise<void> {
  if (repo.owner.type !== "organization")
    throw new MethodNotAllowedError("repo is not owned by an organization");
  await c.get("services").access.org(c.get("actor"), repo.owner.name, "member");
}

async function apiTeams(c: AppContext, repo: RepoAccess, list: readonly Team[]) {
  const org = await apiOrg(c, repo.owner);
  return list.map((team) => toApiTeam(team, org));
}

export const repoListTeams = route({
  method: "get",
  path: "/repos/{owner}/{repo}/teams",
  operationId: "repoListTeams",
  tags: ["repository"],
  summary: "List a repository's teams",
  access: "signed-in",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { 200: { description: "TeamList", schema: v.array(api.Team) }, ...notFound, ...notAnOrg },
  async handler(c, { repo }) {
    await requireOrgRepo(c, repo);
    return c.json(await apiTeams(c, repo, await c.get("services").teams.listForRepo(repo.repo)));
  },
});

export const repoCheckTeam = route({
  method: "get",
  path: "/repos/{owner}/{repo}/teams/{team}",
  operationId: "repoCheckTeam",
  tags: ["repository"],
  summary: "Check if a team is assigned to a repository",
  access: "signed-in",
  repo: "read",
  scopes: ["repository"],
  params: teamParams,
  responses: { 200: { description: "Team", schema: api.Team }, ...notFound, ...notAnOrg },
  async handler(c, { params, repo }) {
    await requireOrgRepo(c, repo);
    const services = c.get("services");
    const team = await services.teams.byName(repo.owner.id, params.team);
    if (!(await services.teams.hasRepo(team, repo.repo))) throw new NotFoundError();
    const [json] = await apiTeams(c, repo, [team]);
    return c.json(json);
  },
});

function changeTeam(method: "put" | "delete") {
  return route({
    method,
    path: "/repos/{owner}/{repo}/teams/{team}",
    operationId: method === "put" ? "repoAddTeam" : "repoDeleteTeam",
    tags: ["repository"],
    summary: method === "put" ? "Add a team to a repository" : "Delete a team from a repository",
    access: "signed-in",
    repo: "admin",
    scopes: ["repository"],
    params: teamParams,
    responses: { ...empty, ...forbidden, ...notFound, ...notAnOrg, ...validationError },
    async handler(c, { params, repo, principal }) {
      const { user } = requirePrincipal(principal);
      await requireOrgRepo(c, repo);
      const teams = c.get("services").teams;
      const team = await teams.byName(repo.owner.id, params.team);
      const has = await teams.hasRepo(team, repo.repo);
      if (method === "put") {
        if (has) throw new InvalidArgumentError("team already have repository");
        await teams.addRepo(team, repo.repo, user);
      } else {
        if (!has) throw new InvalidArgumentError("team do not have repository");
        await teams.removeRepo(team, repo.repo, user);
      }
      return c.body(null, 204);
    },
  });
}

export const repoAddTeam = changeTeam("put");
export const repoDeleteTeam = changeTeam("delete");

export const repoTeamRoutes = [repoListTeams, repoCheckTeam, repoAddTeam, repoDeleteTeam];
