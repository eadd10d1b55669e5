import { NotFoundError } from "@kiln/domain";
import * as v from "valibot";
import { route } from "../../route.js";
import { repoParams } from "../repo/context.js";
import { empty, forbidden, notFound } from "../responses.js";
import { markedRepoRoutes } from "../shared/mark-routes.js";

/**
 * Forgejo's routers/api/v1/user/star.go: starring repositories. `/user/starred…` sits in Forgejo's
 * `/user` group (user scope) and in its own (repository scope): a token needs both. The caller's
 * own list shows their private repositories too; another user's shows only public ones the caller
 * may see.
 */

const starredRoutes = markedRepoRoutes({
  mine: {
    path: "/user/starred",
    operationId: "userCurrentListStarred",
    summary: "The repos that the authenticated user has starred",
    scopes: ["user", "repository"],
    responses: forbidden,
  },
  theirs: {
    path: "/users/{username}/starred",
    operationId: "userListStarred",
    summary: "The repos that the given user has starred",
  },
  marked: (services, actor, user, page) => services.stars.starred(actor, user, page),
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
  ...starredRoutes,
  userCurrentCheckStarring,
  userCurrentPutStar,
  userCurrentDeleteStar,
];
