import { api } from "@kiln/domain";
import { toApiBlockedUser } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";

/**
 * Forgejo's user block routes (routers/api/v1/user/block.go): the signed-in user blocks and
 * unblocks accounts and lists whom they block. The account is resolved through the access module
 * (404 when the caller may not see it). Blocking oneself or someone already blocked answers 204
 * and changes nothing, as Forgejo's BlockUser.
 */

const username = () => v.pipe(v.string(), v.maxLength(255));
export const blockedUserList = {
  description: "BlockedUserList",
  schema: v.array(api.BlockedUser),
};

export const userListBlockedUsers = route({
  method: "get",
  path: "/user/list_blocked",
  operationId: "userListBlockedUsers",
  tags: ["user"],
  summary: "List the authenticated user's blocked users",
  access: "signed-in",
  scopes: ["user"],
  query: v.object(pageQuery),
  responses: { 200: blockedUserList, ...forbidden },
  async handler(c, { query, principal }) {
    const { user } = requirePrincipal(principal);
    return pagedJson(c, query, (page) => c.get("services").blocks.list(user, page), toApiBlockedUser);
  },
});

export const userBlockUser = route({
  method: "put",
  path: "/user/block/{username}",
  operationId: "userBlockUser",
  tags: ["user"],
  summary: "Blocks a user from the doer",
  access: "signed-in",
  scopes: ["user"],
  readersMayWrite: true,
  params: v.object({ username: username() }),
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    const services = c.get("services");
    const target = await services.access.account(c.get("actor"), params.username);
    await services.blocks.block(user, target);
    return c.body(null, 204);
  },
});

export const userUnblockUser = route({
  method: "put",
  path: "/user/unblock/{username}",
  operationId: "userUnblockUser",
  tags: ["user"],
  summary: "Unblocks a user from the doer",
  access: "signed-in",
  scopes: ["user"],
  readersMayWrite: true,
  params: v.object({ username: username() }),
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, principal }) {
    const { user } = requirePrincipal(principal);
    const services = c.get("services");
    const target = await services.access.account(c.get("actor"), params.username);
    await services.blocks.unblock(user, target);
    return c.body(null, 204);
  },
});

export const userBlockRoutes = [userListBlockedUsers, userBlockUser, userUnblockUser];
