import { api, NotFoundError } from "@kiln/domain";
import { accountSight, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound } from "../responses.js";

/**
 * Forgejo's routers/api/v1/user/follower.go: following users. Lists show only the accounts the
 * caller may see; a user the caller may not see is 404, as one that does not exist.
 */

const name = () => v.pipe(v.string(), v.maxLength(255));
const userList = { description: "UserList", schema: v.array(api.User) };

export const userCurrentListFollowers = route({
  method: "get",
  path: "/user/followers",
  operationId: "userCurrentListFollowers",
  tags: ["user"],
  summary: "List the authenticated user's followers",
  access: "signed-in",
  scopes: ["user"],
  query: v.object(pageQuery),
  responses: { 200: userList, ...forbidden },
  async handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    const actor = c.get("actor");
    return pagedJson(
      c,
      query,
      (page) => c.get("services").follows.followers(actor, user, page),
      (u) => toApiUser(u, accountSight(actor.user), c.get("settings")),
    );
  },
});

export const userCurrentListFollowing = route({
  method: "get",
  path: "/user/following",
  operationId: "userCurrentListFollowing",
  tags: ["user"],
  summary: "List the users that the authenticated user is following",
  access: "signed-in",
  scopes: ["user"],
  query: v.object(pageQuery),
  responses: { 200: userList, ...forbidden },
  async handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    const actor = c.get("actor");
    return pagedJson(
      c,
      query,
      (page) => c.get("services").follows.following(actor, user, page),
      (u) => toApiUser(u, accountSight(actor.user), c.get("settings")),
    );
  },
});

export const userCurrentCheckFollowing = route({
  method: "get",
  path: "/user/following/{username}",
  operationId: "userCurrentCheckFollowing",
  tags: ["user"],
  summary: "Check whether a user is followed by the authenticated user",
  access: "signed-in",
  scopes: ["user"],
  params: v.object({ username: name() }),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    const services = c.get("services");
    const target = await services.access.account(c.get("actor"), params.username);
    if (!(await services.follows.isFollowing(user, target))) throw new NotFoundError();
    return c.body(null, 204);
  },
});

export const userCurrentPutFollow = route({
  method: "put",
  path: "/user/following/{username}",
  operationId: "userCurrentPutFollow",
  tags: ["user"],
  summary: "Follow a user",
  access: "signed-in",
  // Following changes only the caller's own list: anyone who may see the account may do it.
  readersMayWrite: true,
  scopes: ["user"],
  params: v.object({ username: name() }),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params }) {
    const services = c.get("services");
    const target = await services.access.account(c.get("actor"), params.username);
    await services.follows.set(c.get("actor"), target, true);
    return c.body(null, 204);
  },
});

export const userCurrentDeleteFollow = route({
  method: "delete",
  path: "/user/following/{username}",
  operationId: "userCurrentDeleteFollow",
  tags: ["user"],
  summary: "Unfollow a user",
  access: "signed-in",
  // Following changes only the caller's own list: anyone who may see the account may do it.
  readersMayWrite: true,
  scopes: ["user"],
  params: v.object({ username: name() }),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params }) {
    const services = c.get("services");
    const target = await services.access.account(c.get("actor"), params.username);
    await services.follows.set(c.get("actor"), target, false);
    return c.body(null, 204);
  },
});

export const userListFollowers = route({
  method: "get",
  path: "/users/{username}/followers",
  operationId: "userListFollowers",
  tags: ["user"],
  summary: "List the given user's followers",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: name() }),
  query: v.object(pageQuery),
  responses: { 200: userList, ...notFound },
  async handler(c, { params, query }) {
    const services = c.get("services");
    const actor = c.get("actor");
    const user = await services.access.account(actor, params.username);
    return pagedJson(
      c,
      query,
      (page) => services.follows.followers(actor, user, page),
      (u) => toApiUser(u, accountSight(actor.user), c.get("settings")),
    );
  },
});

export const userListFollowing = route({
  method: "get",
  path: "/users/{username}/following",
  operationId: "userListFollowing",
  tags: ["user"],
  summary: "List the users that the given user is following",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: name() }),
  query: v.object(pageQuery),
  responses: { 200: userList, ...notFound },
  async handler(c, { params, query }) {
    const services = c.get("services");
    const actor = c.get("actor");
    const user = await services.access.account(actor, params.username);
    return pagedJson(
      c,
      query,
      (page) => services.follows.following(actor, user, page),
      (u) => toApiUser(u, accountSight(actor.user), c.get("settings")),
    );
  },
});

export const userCheckFollowing = route({
  method: "get",
  path: "/users/{username}/following/{target}",
  operationId: "userCheckFollowing",
  tags: ["user"],
  summary: "Check if one user is following another user",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: name(), target: name() }),
  responses: { ...empty, ...notFound },
  async handler(c, { params }) {
    const services = c.get("services");
    const actor = c.get("actor");
    const user = await services.access.account(actor, params.username);
    const target = await services.access.account(actor, params.target);
    if (!(await services.follows.isFollowing(user, target))) throw new NotFoundError();
    return c.body(null, 204);
  },
});

export const followerRoutes = [
  userCurrentListFollowers,
  userCurrentListFollowing,
  userCurrentCheckFollowing,
  userCurrentPutFollow,
  userCurrentDeleteFollow,
  userListFollowers,
  userListFollowing,
  userCheckFollowing,
];
