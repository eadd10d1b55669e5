import { api, formatTime, NotFoundError } from "@kiln/domain";
import { repoLinks } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { route } from "../../route.js";
import { type RepoContext, repoParams } from "../repo/context.js";
import { empty, notFound } from "../responses.js";
import { markedRepoRoutes } from "../shared/mark-routes.js";

/**
 * Forgejo's routers/api/v1/user/watch.go: watching repositories. The caller's own list shows
 * their private repositories too; another user's shows only public ones the caller may see.
 */

/** Forgejo's WatchInfo for a watched repository. */
function watchInfo(c: AppContext, access: RepoContext) {
  const links = repoLinks(access.repo, c.get("settings"));
  return {
    subscribed: true,
    ignored: false,
    reason: null,
    created_at: formatTime(access.repo.createdAt),
    url: `${links.api}/subscription`,
    repository_url: links.api,
  };
}

const watchedRoutes = markedRepoRoutes({
  mine: {
    path: "/user/subscriptions",
    operationId: "userCurrentListSubscriptions",
    summary: "List repositories watched by the authenticated user",
    scopes: ["user"],
  },
  theirs: {
    path: "/users/{username}/subscriptions",
    operationId: "userListSubscriptions",
    summary: "List the repositories watched by a user",
  },
  marked: (services, actor, user, page) => services.watches.watched(actor, user, page),
});

export const userCurrentCheckSubscription = route({
  method: "get",
  path: "/repos/{owner}/{repo}/subscription",
  operationId: "userCurrentCheckSubscription",
  tags: ["repository"],
  summary: "Check if the current user is watching a repo",
  access: "signed-in",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "WatchInfo", schema: api.WatchInfo },
    404: { description: "User is not watching this repo or repo do not exist", schema: api.APINotFound },
  },
  async handler(c, { repo }) {
    const state = await c.get("services").watches.state(repo);
    if (!state.watching) throw new NotFoundError();
    return c.json(watchInfo(c, repo));
  },
});

export const userCurrentPutSubscription = route({
  method: "put",
  path: "/repos/{owner}/{repo}/subscription",
  operationId: "userCurrentPutSubscription",
  tags: ["repository"],
  summary: "Watch a repo",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { 200: { description: "WatchInfo", schema: api.WatchInfo }, ...notFound },
  async handler(c, { repo }) {
    await c.get("services").watches.set(repo, true);
    return c.json(watchInfo(c, repo));
  },
});

export const userCurrentDeleteSubscription = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/subscription",
  operationId: "userCurrentDeleteSubscription",
  tags: ["repository"],
  summary: "Unwatch a repo",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { ...empty, ...notFound },
  async handler(c, { repo }) {
    await c.get("services").watches.set(repo, false);
    return c.body(null, 204);
  },
});

export const watchRoutes = [
  ...watchedRoutes,
  userCurrentCheckSubscription,
  userCurrentPutSubscription,
  userCurrentDeleteSubscription,
];
