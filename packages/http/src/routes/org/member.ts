import { api, NotFoundError } from "@kiln/domain";
import { accountSight, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";

/** Forgejo's routers/api/v1/org/member.go: members and public members. */

const orgUser = v.object({ org: v.string(), username: v.string() });

export const orgListMembers = route({
  method: "get",
  path: "/orgs/{org}/members",
  operationId: "orgListMembers",
  tags: ["organization"],
  summary: "List an organization's members",
  access: "signed-in",
  org: "visible",
  scopes: ["organization"],
  params: v.object({ org: v.string() }),
  query: v.object(pageQuery),
  responses: {
    200: { description: "UserList", schema: v.array(api.User) },
    ...notFound,
  },
  async handler(c, { query, principal, org: { org } }) {
    const { user } = requirePrincipal(principal);
    return pagedJson(
      c,
      query,
      (page) => c.get("services").orgs.listMembers(org, user, page),
      (u) => toApiUser(u, accountSight(user), c.get("settings")),
    );
  },
});

export const orgIsMember = route({
  method: "get",
  path: "/orgs/{org}/members/{username}",
  operationId: "orgIsMember",
  tags: ["organization"],
  summary: "Check if a user is a member of an organization",
  access: "signed-in",
  org: "visible",
  scopes: ["organization"],
  params: orgUser,
  responses: {
    204: { description: "user is a member", schema: "empty" },
    303: { description: "redirection to /orgs/{org}/public_members/{username}", schema: "empty" },
    404: { description: "user is not a member", schema: api.APINotFound },
  },
  async handler(c, { params, principal, org: { org } }) {
    const { user } = requirePrincipal(principal);
    const target = await c.get("services").access.account(c.get("actor"), params.username);
    const answer = await c.get("services").orgs.checkMembership(org, target, user);
    if (answer === "member") return c.body(null, 204);
    if (answer === "not-member") throw new NotFoundError();
    const base = new URL(c.get("settings").server.rootUrl).pathname;
    const location = `${base}api/v1/orgs/${encodeURIComponent(org.name)}/public_members/${encodeURIComponent(target.name)}`;
    return c.body(null, 303, { Location: location });
  },
});

export const orgDeleteMember = route({
  method: "delete",
  path: "/orgs/{org}/members/{username}",
  operationId: "orgDeleteMember",
  tags: ["organization"],
  summary: "Remove a member from an organization",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgUser,
  responses: {
    204: { description: "member removed", schema: "empty" },
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, org: { org } }) {
    const target = await c.get("services").users.getByName(params.username);
    await c.get("services").orgs.removeMember(org, target);
    return c.body(null, 204);
  },
});

export const orgListPublicMembers = route({
  method: "get",
  path: "/orgs/{org}/public_members",
  operationId: "orgListPublicMembers",
  tags: ["organization"],
  summary: "List an organization's public members",
  access: "public",
  org: "visible",
  scopes: ["organization"],
  params: v.object({ org: v.string() }),
  query: v.object(pageQuery),
  responses: {
    200: { description: "UserList", schema: v.array(api.User) },
    ...notFound,
  },
  async handler(c, { query, principal, org: { org } }) {
    const viewer = principal?.user ?? null;
    return pagedJson(
      c,
      query,
      (page) => c.get("services").orgs.listPublicMembers(org, page),
      (u) => toApiUser(u, accountSight(viewer), c.get("settings")),
    );
  },
});

export const orgIsPublicMember = route({
  method: "get",
  path: "/orgs/{org}/public_members/{username}",
  operationId: "orgIsPublicMember",
  tags: ["organization"],
  summary: "Check if a user is a public member of an organization",
  access: "public",
  org: "visible",
  scopes: ["organization"],
  params: orgUser,
  responses: {
    204: { description: "user is a public member", schema: "empty" },
    404: { description: "user is not a public member", schema: api.APINotFound },
  },
  async handler(c, { params, principal, org: { org } }) {
    const _viewer = principal?.user ?? null;
    const target = await c.get("services").access.account(c.get("actor"), params.username);
    if (!(await c.get("services").orgs.isPublicMember(org, target))) throw new NotFoundError();
    return c.body(null, 204);
  },
});

function publicity(method: "put" | "delete", operationId: string, summary: string, isPublic: boolean) {
  return route({
    method,
    path: "/orgs/{org}/public_members/{username}",
    operationId,
    tags: ["organization"],
    summary,
    access: "signed-in",
    org: "member",
    scopes: ["organization"],
    params: orgUser,
    responses: {
      204: { description: "membership changed", schema: "empty" },
      ...forbidden,
      ...notFound,
    },
    async handler(c, { params, principal, org: { org } }) {
      const { user } = requirePrincipal(principal);
      const target = await c.get("services").users.getByName(params.username);
      await c.get("services").orgs.setPublicMembership(org, target, user, isPublic);
      return c.body(null, 204);
    },
  });
}

export const orgPublicizeMember = publicity(
  "put",
  "orgPublicizeMember",
  "Publicize a user's membership",
  true,
);
export const orgConcealMember = publicity("delete", "orgConcealMember", "Conceal a user's membership", false);

export const memberRoutes = [
  orgListMembers,
  orgIsMember,
  orgDeleteMember,
  orgListPublicMembers,
  orgIsPublicMember,
  orgPublicizeMember,
  orgConcealMember,
];
