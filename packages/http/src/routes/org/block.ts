import { toApiBlockedUser } from "@kiln/service";
import * as v from "valibot";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { blockedUserList } from "../user/block.js";

/**
 * Forgejo's organization block routes (routers/api/v1/org/block.go): the organization's owners
 * block and unblock accounts for it (`reqOrgOwnership`); a blocked user may then not act on the
 * organization's repositories. The account is resolved through the access module.
 */

const params = v.object({
  org: v.pipe(v.string(), v.maxLength(255)),
  username: v.pipe(v.string(), v.maxLength(255)),
});

export const orgListBlockedUsers = route({
  method: "get",
  path: "/orgs/{org}/list_blocked",
  operationId: "orgListBlockedUsers",
  tags: ["organization"],
  summary: "List the organization's blocked users",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: v.object({ org: v.pipe(v.string(), v.maxLength(255)) }),
  query: v.object(pageQuery),
  responses: { 200: blockedUserList, ...forbidden, ...notFound },
  async handler(c, { query, org: { org } }) {
    return pagedJson(c, query, (page) => c.get("services").blocks.list(org, page), toApiBlockedUser);
  },
});

export const orgBlockUser = route({
  method: "put",
  path: "/orgs/{org}/block/{username}",
  operationId: "orgBlockUser",
  tags: ["organization"],
  summary: "Blocks a user from the organization",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, org: { org } }) {
    const services = c.get("services");
    const target = await services.access.account(c.get("actor"), params.username);
    await services.blocks.block(org, target);
    return c.body(null, 204);
  },
});

export const orgUnblockUser = route({
  method: "put",
  path: "/orgs/{org}/unblock/{username}",
  operationId: "orgUnblockUser",
  tags: ["organization"],
  summary: "Unblock a user from the organization",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, org: { org } }) {
    const services = c.get("services");
    const target = await services.access.account(c.get("actor"), params.username);
    await services.blocks.unblock(org, target);
    return c.body(null, 204);
  },
});

export const orgBlockRoutes = [orgListBlockedUsers, orgBlockUser, orgUnblockUser];
