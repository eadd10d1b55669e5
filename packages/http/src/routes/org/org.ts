import { api } from "@kiln/domain";
import { signedInViewer, viewerOf } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { apiOrg } from "./access.js";

/** Forgejo's routers/api/v1/org/org.go: organizations. */

const orgParam = v.object({ org: v.string() });

export const orgCreate = route({
  method: "post",
  path: "/orgs",
  operationId: "orgCreate",
  tags: ["organization"],
  summary: "Create an organization",
  access: "signed-in",
  scopes: ["organization"],
  body: api.CreateOrgOption,
  responses: {
    201: { description: "Organization", schema: api.Organization },
    ...forbidden,
    ...validationError,
  },
  async handler(c, { body, principal }) {
    const { user } = requirePrincipal(principal);
    const org = await c.get("services").orgs.create(user, body.username, {
      fullName: body.full_name,
      email: body.email,
      description: body.description,
      website: body.website,
      location: body.location,
      visibility: body.visibility,
      repoAdminChangeTeamAccess: body.repo_admin_change_team_access,
    });
    return c.json(await apiOrg(c, org), 201);
  },
});

export const orgGetAll = route({
  method: "get",
  path: "/orgs",
  operationId: "orgGetAll",
  tags: ["organization"],
  summary: "Get list of organizations",
  access: "public",
  scopes: ["organization"],
  query: v.object(pageQuery),
  responses: { 200: { description: "OrganizationList", schema: v.array(api.Organization) } },
  async handler(c, { query, principal }) {
    const _viewer = principal?.user ?? null;
    return pagedJson(
      c,
      query,
      (page) => c.get("services").orgs.listVisible(viewerOf(c.get("actor")), page),
      (o) => apiOrg(c, o),
    );
  },
});

export const orgGet = route({
  method: "get",
  path: "/orgs/{org}",
  operationId: "orgGet",
  tags: ["organization"],
  summary: "Get an organization",
  access: "public",
  org: "visible",
  scopes: ["organization"],
  params: orgParam,
  responses: {
    200: { description: "Organization", schema: api.Organization },
    ...notFound,
  },
  async handler(c, { org: { org } }) {
    return c.json(await apiOrg(c, org));
  },
});

export const orgEdit = route({
  method: "patch",
  path: "/orgs/{org}",
  operationId: "orgEdit",
  tags: ["organization"],
  summary: "Edit an organization",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  body: api.EditOrgOption,
  responses: {
    200: { description: "Organization", schema: api.Organization },
    ...notFound,
    ...validationError,
  },
  async handler(c, { body, org: { org } }) {
    const edited = await c.get("services").orgs.edit(org, {
      fullName: body.full_name,
      email: body.email,
      description: body.description,
      website: body.website,
      location: body.location,
      visibility: body.visibility,
      repoAdminChangeTeamAccess: body.repo_admin_change_team_access,
    });
    return c.json(await apiOrg(c, edited));
  },
});

export const orgDelete = route({
  method: "delete",
  path: "/orgs/{org}",
  operationId: "orgDelete",
  tags: ["organization"],
  summary: "Delete an organization",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  responses: {
    ...empty,
    ...notFound,
    ...validationError,
  },
  async handler(c, { org: { org } }) {
    await c.get("services").orgs.delete(org);
    return c.body(null, 204);
  },
});

export const orgListCurrentUserOrgs = route({
  method: "get",
  path: "/user/orgs",
  operationId: "orgListCurrentUserOrgs",
  tags: ["organization"],
  summary: "List the current user's organizations",
  access: "signed-in",
  scopes: ["user", "organization"],
  query: v.object(pageQuery),
  responses: { 200: { description: "OrganizationList", schema: v.array(api.Organization) } },
  async handler(c, { query }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").orgs.listMine(signedInViewer(c.get("actor")), page),
      (o) => apiOrg(c, o),
    );
  },
});

export const orgListUserOrgs = route({
  method: "get",
  path: "/users/{username}/orgs",
  operationId: "orgListUserOrgs",
  tags: ["organization"],
  summary: "List a user's organizations",
  access: "signed-in",
  scopes: ["user", "organization"],
  params: v.object({ username: v.string() }),
  query: v.object(pageQuery),
  responses: { 200: { description: "OrganizationList", schema: v.array(api.Organization) } },
  async handler(c, { params, query }) {
    const target = await c.get("services").access.account(c.get("actor"), params.username);
    return pagedJson(
      c,
      query,
      (page) => c.get("services").orgs.listOfUser(target, viewerOf(c.get("actor")), page),
      (o) => apiOrg(c, o),
    );
  },
});

export const orgGetUserPermissions = route({
  method: "get",
  path: "/users/{username}/orgs/{org}/permissions",
  operationId: "orgGetUserPermissions",
  tags: ["organization"],
  summary: "Get user permissions in organization",
  access: "signed-in",
  org: "visible",
  scopes: ["user", "organization"],
  params: v.object({ username: v.string(), org: v.string() }),
  responses: {
    200: { description: "OrganizationPermissions", schema: api.OrganizationPermissions },
    ...notFound,
  },
  async handler(c, { params, org: { org } }) {
    const target = await c.get("services").access.account(c.get("actor"), params.username);
    const p = await c.get("services").orgs.permissionsOf(org, target);
    return c.json({
      is_owner: p.isOwner,
      is_admin: p.isAdmin,
      can_write: p.canWrite,
      can_read: p.canRead,
      can_create_repository: p.canCreateRepository,
    });
  },
});

export const renameOrg = route({
  method: "post",
  path: "/orgs/{org}/rename",
  operationId: "renameOrg",
  tags: ["organization"],
  summary: "Rename an organization",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  body: api.RenameOrgOption,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { body, org: { org } }) {
    await c.get("services").renames.renameOrg(org, body.new_name);
    return c.body(null, 204);
  },
});

export const orgRoutes = [
  orgCreate,
  orgGetAll,
  orgGet,
  orgEdit,
  orgDelete,
  orgListCurrentUserOrgs,
  orgListUserOrgs,
  orgGetUserPermissions,
  renameOrg,
];
