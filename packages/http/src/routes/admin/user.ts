import { api } from "@kiln/domain";
import { accountSight, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";

/** Forgejo's routers/api/v1/admin/user.go: site administration of user accounts. */

export const adminSearchUsers = route({
  method: "get",
  path: "/admin/users",
  operationId: "adminSearchUsers",
  tags: ["admin"],
  summary: "Search users according filter conditions",
  access: "site-admin",
  scopes: ["admin"],
  query: v.object({
    source_id: v.optional(qs.int("ID of the user's login source to search for")),
    login_name: v.optional(qs.string("user's login name to search for")),
    sort: v.optional(
      qs.enum(
        ["oldest", "newest", "alphabetically", "reversealphabetically", "recentupdate", "leastupdate"],
        "sort order of results",
      ),
    ),
    q: v.optional(qs.string("keyword")),
    ...pageQuery,
  }),
  responses: { 200: { description: "UserList", schema: v.array(api.User) } },
  async handler(c, { query, principal }) {
    const viewer = requirePrincipal(principal).user;
    const filter = { q: query.q, loginName: query.login_name, sourceId: query.source_id, sort: query.sort };
    return pagedJson(
      c,
      query,
      (page) => c.get("services").users.listForAdmin(filter, page),
      (u) => toApiUser(u, accountSight(viewer), c.get("settings")),
    );
  },
});

export const adminCreateUser = route({
  method: "post",
  path: "/admin/users",
  operationId: "adminCreateUser",
  tags: ["admin"],
  summary: "Create a user",
  access: "site-admin",
  scopes: ["admin"],
  body: api.CreateUserOption,
  responses: {
    201: { description: "User", schema: api.User },
    400: { description: "APIError", schema: api.APIError },
    ...validationError,
  },
  async handler(c, { body, principal }) {
    const viewer = requirePrincipal(principal).user;
    const user = await c.get("services").users.create({
      username: body.username,
      email: body.email,
      password: body.password,
      fullName: body.full_name,
      loginName: body.login_name,
      sourceId: body.source_id,
      mustChangePassword: body.must_change_password ?? true,
      restricted: body.restricted,
      visibility: body.visibility,
      createdAt: body.created_at ? new Date(body.created_at) : undefined,
    });
    return c.json(toApiUser(user, accountSight(viewer), c.get("settings")), 201);
  },
});

export const adminEditUser = route({
  method: "patch",
  path: "/admin/users/{username}",
  operationId: "adminEditUser",
  tags: ["admin"],
  summary: "Edit an existing user",
  access: "site-admin",
  scopes: ["admin"],
  params: v.object({ username: v.string() }),
  body: api.EditUserOption,
  responses: {
    200: { description: "User", schema: api.User },
    400: { description: "APIError", schema: api.APIError },
    ...validationError,
  },
  async handler(c, { params, body, principal }) {
    const viewer = requirePrincipal(principal).user;
    const target = await c.get("services").users.getByName(params.username);
    const user = await c.get("services").users.adminEdit(target, {
      email: body.email,
      password: body.password,
      fullName: body.full_name,
      loginName: body.login_name,
      sourceId: body.source_id,
      mustChangePassword: body.must_change_password,
      active: body.active,
      admin: body.admin,
      restricted: body.restricted,
      prohibitLogin: body.prohibit_login,
      visibility: body.visibility,
      location: body.location,
      website: body.website,
      description: body.description,
      pronouns: body.pronouns,
      maxRepoCreation: body.max_repo_creation,
      allowCreateOrganization: body.allow_create_organization,
      allowGitHook: body.allow_git_hook,
      allowImportLocal: body.allow_import_local,
    });
    return c.json(toApiUser(user, accountSight(viewer), c.get("settings")));
  },
});

export const adminDeleteUser = route({
  method: "delete",
  path: "/admin/users/{username}",
  operationId: "adminDeleteUser",
  tags: ["admin"],
  summary: "Delete a user",
  access: "site-admin",
  scopes: ["admin"],
  params: v.object({ username: v.string() }),
  query: v.object({ purge: v.optional(qs.bool("purge the user from the system completely")) }),
  responses: {
    ...empty,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, query, principal }) {
    const target = await c.get("services").users.getByName(params.username);
    await c.get("services").users.delete(target, requirePrincipal(principal).user, {
      purge: query.purge ?? false,
    });
    return c.body(null, 204);
  },
});

export const adminRenameUser = route({
  method: "post",
  path: "/admin/users/{username}/rename",
  operationId: "adminRenameUser",
  tags: ["admin"],
  summary: "Rename a user",
  access: "site-admin",
  scopes: ["admin"],
  params: v.object({ username: v.string() }),
  body: api.RenameUserOption,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, body }) {
    const target = await c.get("services").users.getByName(params.username);
    await c.get("services").renames.rename(target, body.new_username);
    return c.body(null, 204);
  },
});

export const adminUserRoutes = [
  adminSearchUsers,
  adminCreateUser,
  adminEditUser,
  adminDeleteUser,
  adminRenameUser,
];
