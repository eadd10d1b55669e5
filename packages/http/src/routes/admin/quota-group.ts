import { api } from "@kiln/domain";
import { accountSight, toApiQuotaGroup, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";
import { conflict, empty, forbidden, notFound, validationError } from "../responses.js";
import { quotaEnabled } from "../shared/quota.js";

/**
 * Forgejo's routers/api/v1/admin/quota_group.go: quota groups, their rules and the users and
 * organizations they apply to (site admins only). Lookups go group first, then rule or user.
 */

const common = {
  tags: ["admin"],
  access: "site-admin",
  scopes: ["admin"],
  enabled: quotaEnabled,
} as const;
const groupParam = v.object({ quotagroup: v.string() });
const groupRuleParams = v.object({ quotagroup: v.string(), quotarule: v.string() });
const groupUserParams = v.object({ quotagroup: v.string(), username: v.string() });

export const adminListQuotaGroups = route({
  ...common,
  method: "get",
  path: "/admin/quota/groups",
  operationId: "adminListQuotaGroups",
  summary: "List the available quota groups",
  responses: { 200: { description: "QuotaGroupList", schema: api.QuotaGroupList }, ...forbidden },
  async handler(c) {
    return c.json((await c.get("services").quotaAdmin.listGroups()).map((g) => toApiQuotaGroup(g, true)));
  },
});

export const adminCreateQuotaGroup = route({
  ...common,
  method: "post",
  path: "/admin/quota/groups",
  operationId: "adminCreateQuotaGroup",
  summary: "Create a new quota group",
  body: api.CreateQuotaGroupOptions,
  responses: {
    201: { description: "QuotaGroup", schema: api.QuotaGroup },
    ...forbidden,
    ...conflict,
    ...validationError,
  },
  async handler(c, { body }) {
    const group = await c.get("services").quotaAdmin.createGroup(body.name, body.rules ?? []);
    return c.json(toApiQuotaGroup(group, true), 201);
  },
});

export const adminGetQuotaGroup = route({
  ...common,
  method: "get",
  path: "/admin/quota/groups/{quotagroup}",
  operationId: "adminGetQuotaGroup",
  summary: "Get information about the quota group",
  params: groupParam,
  responses: { 200: { description: "QuotaGroup", schema: api.QuotaGroup }, ...forbidden, ...notFound },
  async handler(c, { params }) {
    return c.json(toApiQuotaGroup(await c.get("services").quotaAdmin.getGroup(params.quotagroup), true));
  },
});

export const adminDeleteQuotaGroup = route({
  ...common,
  method: "delete",
  path: "/admin/quota/groups/{quotagroup}",
  operationId: "adminDeleteQuotaGroup",
  summary: "Delete a quota group",
  params: groupParam,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params }) {
    await c.get("services").quotaAdmin.deleteGroup(params.quotagroup);
    return c.body(null, 204);
  },
});

export const adminAddRuleToQuotaGroup = route({
  ...common,
  method: "put",
  path: "/admin/quota/groups/{quotagroup}/rules/{quotarule}",
  operationId: "adminAddRuleToQuotaGroup",
  summary: "Adds a rule to a quota group",
  params: groupRuleParams,
  responses: { ...empty, ...forbidden, ...notFound, ...conflict },
  async handler(c, { params }) {
    await c.get("services").quotaAdmin.addRuleToGroup(params.quotagroup, params.quotarule);
    return c.body(null, 204);
  },
});

/** Answers 204 as Forgejo does (its API description says 201). */
export const adminRemoveRuleFromQuotaGroup = route({
  ...common,
  method: "delete",
  path: "/admin/quota/groups/{quotagroup}/rules/{quotarule}",
  operationId: "adminRemoveRuleFromQuotaGroup",
  summary: "Removes a rule from a quota group",
  params: groupRuleParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params }) {
    await c.get("services").quotaAdmin.removeRuleFromGroup(params.quotagroup, params.quotarule);
    return c.body(null, 204);
  },
});

export const adminListUsersInQuotaGroup = route({
  ...common,
  method: "get",
  path: "/admin/quota/groups/{quotagroup}/users",
  operationId: "adminListUsersInQuotaGroup",
  summary: "List users in a quota group",
  params: groupParam,
  responses: { 200: { description: "UserList", schema: v.array(api.User) }, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    const viewer = requirePrincipal(principal).user;
    const owners = await c.get("services").quotaAdmin.listGroupOwners(params.quotagroup);
    return c.json(owners.map((u) => toApiUser(u, accountSight(viewer), c.get("settings"))));
  },
});

/** Works for organizations too: they are put into groups through the same path. */
export const adminAddUserToQuotaGroup = route({
  ...common,
  method: "put",
  path: "/admin/quota/groups/{quotagroup}/users/{username}",
  operationId: "adminAddUserToQuotaGroup",
  summary: "Add a user to a quota group",
  params: groupUserParams,
  responses: { ...empty, ...forbidden, ...notFound, ...conflict },
  async handler(c, { params }) {
    await c.get("services").quotaAdmin.addOwnerToGroup(params.quotagroup, params.username);
    return c.body(null, 204);
  },
});

export const adminRemoveUserFromQuotaGroup = route({
  ...common,
  method: "delete",
  path: "/admin/quota/groups/{quotagroup}/users/{username}",
  operationId: "adminRemoveUserFromQuotaGroup",
  summary: "Remove a user from a quota group",
  params: groupUserParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params }) {
    await c.get("services").quotaAdmin.removeOwnerFromGroup(params.quotagroup, params.username);
    return c.body(null, 204);
  },
});

/** Replaces the user's (or organization's) set of groups; 422 naming an unknown group. */
export const adminSetUserQuotaGroups = route({
  ...common,
  method: "post",
  path: "/admin/users/{username}/quota/groups",
  operationId: "adminSetUserQuotaGroups",
  summary: "Set the user's quota groups to a given list.",
  params: v.object({ username: v.string() }),
  body: api.SetUserQuotaGroupsOptions,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, body }) {
    const owner = await c.get("services").users.getByName(params.username);
    await c.get("services").quotaAdmin.setOwnerGroups(owner, body.groups);
    return c.body(null, 204);
  },
});

export const adminQuotaGroupRoutes = [
  adminListQuotaGroups,
  adminCreateQuotaGroup,
  adminGetQuotaGroup,
  adminDeleteQuotaGroup,
  adminAddRuleToQuotaGroup,
  adminRemoveRuleFromQuotaGroup,
  adminListUsersInQuotaGroup,
  adminAddUserToQuotaGroup,
  adminRemoveUserFromQuotaGroup,
  adminSetUserQuotaGroups,
];
