import { api, NotFoundError } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { pagedRepos, repoParams } from "../repo/context.js";
import { empty, forbidden, notFound } from "../responses.js";

/**
 * Forgejo's routers/api/v1/user/star.go: starring repositories. `/user/starred…` sits in Forgejo's
 * `/user` group (user scope) and in its own (repository scope): a token needs both. The caller's
 * own list shows their private repositories too; another user's shows only public ones the caller
 * may see.
 */

const repoList = { description: "RepositoryList", schema: v.array(api.Repository) };

export const userCurrentListStarred = route({
  method: "get",
  path: "/user/starred",
  operationId: "userCurrentListStarred",
  tags: ["user"],
  summary: "The repos that the authenticated user has starred",
  access: "signed-in",
  scopes: ["user", "repository"],
  query: v.object(pageQuery),
  responses: { 200: repoList, ...forbidden },
  async handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    return pagedRepos(c, query, (page) => c.get("services").stars.starred(c.get("actor"), user, page));
  },
});

export const userListStarred = route({
  method: "get",
  path: "/users/{username}/starred",
  operationId: "userListStarred",
  tags: ["user"],
  summary: "The repos that the given user has starred",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: v.pipe(v.string(), v.maxLength(255)) }),
  query: v.object(pageQuery),
  responses: { 200: repoList, ...notFound },
  async handler(c, { params, query }) {
    const services = c.get("services");
    const user = await services.access.account(c.get("actor"), params.username);
    return pagedRepos(c, query, (page) => services.stars.starred(c.get("actor"), user, page));
  },
});

export const userCurrentCheckStarring = route({
  method: "get",
  path: "/user/starred/{owner}/{repo}",
  operationId: "userCurrentCheckStarring",
  tags: ["user"],
  summary: "Whether the authenticated is starring the repo",
  access: "signed-in",
  repo: "read",
  scopes: ["user", "repository"],
  params: v.object(repoParams),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { repo }) {
    if (!(await c.get("services").stars.isStarred(repo))) throw new NotFoundError();
    return c.body(null, 204);
  },
});

export const userCurrentPutStar = route({
  method: "put",
  path: "/user/starred/{owner}/{repo}",
  operationId: "userCurrentPutStar",
  tags: ["user"],
  summary: "Star the given repo",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["user", "repository"],
  params: v.object(repoParams),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { repo }) {
    await c.get("services").stars.set(repo, true);
    return c.body(null, 204);
  },
});

export const userCurrentDeleteStar = route({
  method: "delete",
  path: "/user/starred/{owner}/{repo}",
  operationId: "userCurrentDeleteStar",
  tags: ["user"],
  summary: "Unstar the given repo",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["user", "repository"],
  params: v.object(repoParams),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { repo }) {
    await c.get("services").stars.set(repo, false);
    return c.body(null, 204);
  },
});

export const starRoutes = [
  userCurrentListStarred,
  userListStarred,
  userCurrentCheckStarring,
  userCurrentPutStar,
  userCurrentDeleteStar,
];
