import { api, InvalidArgumentError, isKilnError, type User } from "@kiln/domain";
import { viewerOf } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { pageQuery } from "../../query.js";
import { enforceQuota } from "../../quota-enforcement.js";
import { route } from "../../route.js";
import { forbidden, notFound, quotaExceeded, validationError } from "../responses.js";
import { apiRepo, pagedRepos, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/fork.go. */

export const listForks = route({
  method: "get",
  path: "/repos/{owner}/{repo}/forks",
  operationId: "listForks",
  tags: ["repository"],
  summary: "List a repository's forks",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: {
    200: { description: "RepositoryList", schema: v.array(api.Repository) },
    ...notFound,
  },
  async handler(c, { query, repo }) {
    const viewer = viewerOf(c.get("actor"));
    return pagedRepos(c, query, (page) => c.get("services").forks.list(viewer, repo.repo, page));
  },
});

/**
 * The organization a fork goes to: as Forgejo's GetOrgByName, 422 when there is none, which is
 * also the answer for one the caller may not see or a user's name.
 */
async function forkOrganization(c: AppContext, name: string): Promise<User> {
  const account = await c
    .get("services")
    .access.account(c.get("actor"), name)
    .catch((err: unknown) => {
      if (isKilnError(err) && err.kind === "not_found") return undefined;
      throw err;
    });
  if (account?.type !== "organization") {
    throw new InvalidArgumentError(`org does not exist [id: 0, name: ${name}]`);
  }
  return account;
}

export const createFork = route({
  method: "post",
  path: "/repos/{owner}/{repo}/forks",
  operationId: "createFork",
  tags: ["repository"],
  summary: "Fork a repository",
  access: "signed-in",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreateForkOption,
  responses: {
    202: { description: "Repository", schema: api.Repository },
    ...forbidden,
    ...notFound,
    409: { description: "The repository with the same name already exists.", schema: api.APIError },
    ...quotaExceeded,
    ...validationError,
  },
  async handler(c, { body, principal, repo }) {
    const { user } = requirePrincipal(principal);
    const services = c.get("services");
    const owner = body.organization ? await forkOrganization(c, body.organization) : user;
    await services.forks.checkTarget(user, owner);
    await enforceQuota(c, owner, "size:repos:all");
    const fork = await services.forks.fork(user, repo.repo, repo.owner, owner, body.name ?? undefined);
    return c.json(await apiRepo(c, fork), 202);
  },
});

export const forkRoutes = [listForks, createFork];
