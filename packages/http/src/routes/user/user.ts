import { api } from "@kiln/domain";
import { accountSight, toApiUser, viewerOf } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";

/** Forgejo's routers/api/v1/user/user.go: user search, lookup, and the signed-in user. */

export const userSearch = route({
  method: "get",
  path: "/users/search",
  operationId: "userSearch",
  tags: ["user"],
  summary: "Search for users",
  access: "public",
  scopes: ["user"],
  query: v.object({
    q: v.optional(qs.string("keyword")),
    uid: v.optional(qs.int("ID of the user to search for")),
    ...pageQuery,
  }),
  responses: { 200: { description: "SearchResults of a successful search", schema: api.UserSearchResults } },
  async handler(c, { query, principal }) {
    const viewer = principal?.user ?? null;
    const page = pageRequest(query, c.get("settings").api);
    const found = await c
      .get("services")
      .users.search(viewerOf(c.get("actor")), { q: query.q, uid: query.uid, byEmail: true }, page);
    setPagingHeaders(c, page, found.total);
    return c.json({
      ok: true,
      data: found.items.map((u) => toApiUser(u, accountSight(viewer), c.get("settings"))),
    });
  },
});

export const userGet = route({
  method: "get",
  path: "/users/{username}",
  operationId: "userGet",
  tags: ["user"],
  summary: "Get a user",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: v.string() }),
  responses: {
    200: { description: "User", schema: api.User },
    ...notFound,
  },
  async handler(c, { params, principal }) {
    const viewer = principal?.user ?? null;
    const user = await c.get("services").access.account(c.get("actor"), params.username);
    return c.json(toApiUser(user, accountSight(viewer), c.get("settings")));
  },
});

export const userGetCurrent = route({
  method: "get",
  path: "/user",
  operationId: "userGetCurrent",
  tags: ["user"],
  summary: "Get the authenticated user",
  access: "signed-in",
  scopes: ["user"],
  responses: { 200: { description: "User", schema: api.User } },
  handler(c, { principal }) {
    const { user } = requirePrincipal(principal);
    return c.json(toApiUser(user, accountSight(user), c.get("settings")));
  },
});

export const userRoutes = [userSearch, userGetCurrent, userGet];
