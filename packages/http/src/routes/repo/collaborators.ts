import { api, NotFoundError } from "@kiln/domain";
import { accountSight, requirePermissionQuery, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/collaborators.go (listing needs only read access: API rule 21, docs/decisions.md). */

const collaboratorParams = v.object({ ...repoParams, collaborator: v.string() });

export const repoListCollaborators = route({
  method: "get",
  path: "/repos/{owner}/{repo}/collaborators",
  operationId: "repoListCollaborators",
  tags: ["repository"],
  summary: "List a repository's collaborators",
  access: "signed-in",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: {
    200: { description: "UserList", schema: v.array(api.User) },
    ...notFound,
  },
  async handler(c, { query, repo: access }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").collaborators.list(access.repo, page),
      (u) => toApiUser(u, accountSight(access.viewer), c.get("settings")),
    );
  },
});

export const repoCheckCollaborator = route({
  method: "get",
  path: "/repos/{owner}/{repo}/collaborators/{collaborator}",
  operationId: "repoCheckCollaborator",
  tags: ["repository"],
  summary: "Check if a user is a collaborator of a repository",
  access: "signed-in",
  repo: "read",
  scopes: ["repository"],
  params: collaboratorParams,
  responses: {
    204: { description: "the user is a collaborator", schema: "empty" },
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    const user = await c.get("services").users.getByName(params.collaborator);
    if (!(await c.get("services").collaborators.isCollaborator(access.repo, user))) throw new NotFoundError();
    return c.body(null, 204);
  },
});

export const repoAddCollaborator = route({
  method: "put",
  path: "/repos/{owner}/{repo}/collaborators/{collaborator}",
  operationId: "repoAddCollaborator",
  tags: ["repository"],
  summary: "Add or update a collaborator of a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: collaboratorParams,
  body: api.AddCollaboratorOption,
  bodyRequired: false,
  responses: {
    204: { description: "collaborator added", schema: "empty" },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, principal, repo: access }) {
    const { user: doer } = requirePrincipal(principal);
    const user = await c.get("services").users.getByName(params.collaborator);
    await c.get("services").collaborators.add(access.repo, user, body.permission ?? "write", doer);
    return c.body(null, 204);
  },
});

export const repoDeleteCollaborator = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/collaborators/{collaborator}",
  operationId: "repoDeleteCollaborator",
  tags: ["repository"],
  summary: "Delete a collaborator from a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: collaboratorParams,
  responses: {
    204: { description: "collaborator removed", schema: "empty" },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    const user = await c.get("services").users.getByName(params.collaborator);
    await c.get("services").collaborators.remove(access.repo, user);
    return c.body(null, 204);
  },
});

export const repoGetRepoPermissions = route({
  method: "get",
  path: "/repos/{owner}/{repo}/collaborators/{collaborator}/permission",
  operationId: "repoGetRepoPermissions",
  tags: ["repository"],
  summary: "Get repository permissions for a user",
  access: "signed-in",
  repo: "read",
  scopes: ["repository"],
  params: collaboratorParams,
  responses: {
    200: { description: "RepoCollaboratorPermission", schema: api.RepoCollaboratorPermission },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, principal, repo: access }) {
    const { user: doer } = requirePrincipal(principal);
    const target = await c.get("services").users.getByName(params.collaborator);
    requirePermissionQuery(access, target);
    const mode = await c.get("services").collaborators.accessModeOf(access.repo, target);
    return c.json({
      permission: mode,
      role_name: mode,
      user: toApiUser(target, accountSight(doer), c.get("settings")),
    });
  },
});

export const collaboratorRoutes = [
  repoListCollaborators,
  repoCheckCollaborator,
  repoAddCollaborator,
  repoDeleteCollaborator,
  repoGetRepoPermissions,
];
