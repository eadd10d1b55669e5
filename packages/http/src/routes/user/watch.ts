import { api, formatTime, NotFoundError } from "@kiln/domain";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { repoLinks } from "../../convert/git.js";
import type { AppContext } from "../../env.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { pagedRepos, type RepoContext, repoParams } from "../repo/context.js";
import { empty, notFound } from "../responses.js";

/**
 * Forgejo's routers/api/v1/user/watch.go: watching repositories. The caller's own list shows
 * their private repositories too; another user's shows only public ones the caller may see.
 */

const repoList = { description: "RepositoryList", schema: v.array(api.Repository) };

/** Forgejo's WatchInfo for a watched repository. */
function watchInfo(c: AppContext, ctx: RepoContext) {
  const links = repoLinks(ctx.repo, c.get("settings"));
  return {
    subscribed: true,
    ignored: false,
    reason: null,
    created_at: formatTime(ctx.repo.createdAt),
    url: `${links.api}/subscription`,
    repository_url: links.api,
  };
}

export const userCurrentListSubscriptions = route({
  method: "get",
  path: "/user/subscriptions",
  operationId: "userCurrentListSubscriptions",
  tags: ["user"],
  summary: "List repositories watched by the authenticated user",
  access: "signed-in",
  scopes: ["user"],
  query: v.object(pageQuery),
  responses: { 200: repoList },
  async handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    return pagedRepos(c, query, (page) => c.get("services").watches.watched(c.get("actor"), user, page));
  },
});

export const userListSubscriptions = route({
  method: "get",
  path: "/users/{username}/subscriptions",
  operationId: "userListSubscriptions",
  tags: ["user"],
  summary: "List the repositories watched by a user",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: v.pipe(v.string(), v.maxLength(255)) }),
  query: v.object(pageQuery),
  responses: { 200: repoList, ...notFound },
  async handler(c, { params, query }) {
    const services = c.get("services");
    const user = await services.access.account(c.get("actor"), params.username);
    return pagedRepos(c, query, (page) => services.watches.watched(c.get("actor"), user, page));
  },
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
  userCurrentListSubscriptions,
  userListSubscriptions,
  userCurrentCheckSubscription,
  userCurrentPutSubscription,
  userCurrentDeleteSubscription,
];
