import { api, NotFoundError } from "@kiln/domain";
import { viewerOf } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { apiRepo, pagedRepos } from "../repo/context.js";
import { forbidden, notFound } from "../responses.js";

/** Forgejo's routers/api/v1/org/team.go, a team's repositories: list, look up, add and remove. */

const teamParam = v.object({ id: qs.int("id of the team") });

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
    ...notFound,
  },
  async handler(c, { params, query }) {
    const { team } = await c.get("services").access.team(c.get("actor"), params.id);
    return pagedRepos(c, query, (page) =>
      c.get("services").teams.repos(team, viewerOf(c.get("actor")), page),
    );
  },
});

const teamRepo = v.object({ id: qs.int("id of the team"), org: v.string(), repo: v.string() });

/** The team and the repository `{org}/{repo}` of `/teams/{id}/repos/{org}/{repo}`, if the actor may see both. */
async function teamRepoTarget(
  c: AppContext,
  params: v.InferOutput<typeof teamRepo>,
  need: "member" | "owner",
) {
  const { team } = await c.get("services").access.team(c.get("actor"), params.id, need);
  const repo = await c.get("services").access.repo(c.get("actor"), params.org, params.repo);
  return { team, repo };
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
    ...notFound,
  },
  async handler(c, { params }) {
    const { team, repo } = await teamRepoTarget(c, params, "member");
    if (!(await c.get("services").teams.hasRepo(team, repo.repo))) throw new NotFoundError();
    return c.json(await apiRepo(c, repo.repo, repo));
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
      ...forbidden,
      ...notFound,
    },
    async handler(c, { params, principal }) {
      const { user } = requirePrincipal(principal);
      const { team, repo } = await teamRepoTarget(c, params, "member");
      if (method === "put") await c.get("services").teams.addRepo(team, repo.repo, user);
      else await c.get("services").teams.removeRepo(team, repo.repo, user);
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
