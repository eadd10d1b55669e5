import { api, type User } from "@kiln/domain";
import { requireSelfOrAdmin, toApiAccessToken } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { empty, notFound } from "../responses.js";

/** Forgejo's routers/api/v1/user/app.go: personal access tokens. */

const username = v.object({ username: v.string() });

/** The user named `name`, whose tokens are theirs and site admins' business only (Forgejo's reqSelfOrAdmin). */
async function tokenOwner(c: AppContext, name: string, doer: User): Promise<User> {
  const target = await c.get("services").access.account(c.get("actor"), name);
  requireSelfOrAdmin(doer, target);
  return target;
}

/**
 * Token management needs Basic auth with the account password, listing included, so that a
 * leaked token cannot enumerate or mint its siblings. Forgejo's reqBasicOrRevProxyAuth guards
 * creation and deletion; Forgejo v11 relaxed listing (forgejo#6633), Kiln keeps it guarded.
 */
export const userGetTokens = route({
  method: "get",
  path: "/users/{username}/tokens",
  operationId: "userGetTokens",
  tags: ["user"],
  summary: "List the specified user's access tokens",
  access: "password",
  scopes: ["user"],
  params: username,
  query: v.object(pageQuery),
  responses: { 200: { description: "AccessTokenList", schema: v.array(api.AccessToken) } },
  async handler(c, { params, query, principal }) {
    const target = await tokenOwner(c, params.username, requirePrincipal(principal).user);
    return pagedJson(
      c,
      query,
      (page) => c.get("services").tokens.list(target, page),
      (t) => toApiAccessToken(t),
    );
  },
});

export const userCreateToken = route({
  method: "post",
  path: "/users/{username}/tokens",
  operationId: "userCreateToken",
  tags: ["user"],
  summary: "Generate an access token for the specified user",
  access: "password",
  scopes: ["user"],
  params: username,
  body: api.CreateAccessTokenOption,
  responses: {
    201: { description: "AccessToken", schema: api.AccessToken },
    400: { description: "APIError", schema: api.APIError },
  },
  async handler(c, { params, body, principal }) {
    const target = await tokenOwner(c, params.username, requirePrincipal(principal).user);
    const { token, secret } = await c.get("services").tokens.create(target, body.name, body.scopes ?? []);
    return c.json(toApiAccessToken(token, secret), 201);
  },
});

export const userDeleteAccessToken = route({
  method: "delete",
  path: "/users/{username}/tokens/{token}",
  operationId: "userDeleteAccessToken",
  tags: ["user"],
  summary: "Delete an access token from the specified user's account, by id or by name",
  access: "password",
  scopes: ["user"],
  params: v.object({ username: v.string(), token: v.string() }),
  responses: {
    ...empty,
    ...notFound,
  },
  async handler(c, { params, principal }) {
    const target = await tokenOwner(c, params.username, requirePrincipal(principal).user);
    await c.get("services").tokens.delete(target, params.token);
    return c.body(null, 204);
  },
});

export const tokenRoutes = [userGetTokens, userCreateToken, userDeleteAccessToken];
