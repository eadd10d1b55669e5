import { api } from "@kiln/domain";
import { type TagProtectionInput, toApiTagProtection } from "@kiln/service";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, repoArchived, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/tag.go, tag protections: repository admins only (reqAdmin). */

type Options = v.InferOutput<typeof api.EditTagProtectionOption>;

function protectionInput(body: Options): TagProtectionInput {
  return {
    ...(body.name_pattern !== undefined ? { namePattern: body.name_pattern } : {}),
    ...(body.whitelist_usernames !== undefined ? { whitelistUsernames: body.whitelist_usernames } : {}),
    ...(body.whitelist_teams !== undefined ? { whitelistTeams: body.whitelist_teams } : {}),
  };
}

const idParams = v.object({ ...repoParams, id: qs.int("id of the tag protection", { min: 1 }) });
const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;

export const repoListTagProtection = route({
  method: "get",
  path: "/repos/{owner}/{repo}/tag_protections",
  operationId: "repoListTagProtection",
  tags: ["repository"],
  summary: "List tag protections for a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "TagProtectionList", schema: v.array(api.TagProtection) },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { repo: access }) {
    return c.json((await c.get("services").tagProtections.list(access.repo)).map(toApiTagProtection));
  },
});

export const repoCreateTagProtection = route({
  method: "post",
  path: "/repos/{owner}/{repo}/tag_protections",
  operationId: "repoCreateTagProtection",
  tags: ["repository"],
  summary: "Create a tag protections for a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreateTagProtectionOption,
  bodyRequired: false,
  responses: {
    201: { description: "TagProtection", schema: api.TagProtection },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { body, repo: access }) {
    const view = await c.get("services").tagProtections.create(access.repo, protectionInput(body));
    return c.json(toApiTagProtection(view), 201);
  },
});

export const repoGetTagProtection = route({
  method: "get",
  path: "/repos/{owner}/{repo}/tag_protections/{id}",
  operationId: "repoGetTagProtection",
  tags: ["repository"],
  summary: "Get a specific tag protection for the repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  responses: {
    200: { description: "TagProtection", schema: api.TagProtection },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    return c.json(toApiTagProtection(await c.get("services").tagProtections.get(access.repo, params.id)));
  },
});

export const repoEditTagProtection = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/tag_protections/{id}",
  operationId: "repoEditTagProtection",
  tags: ["repository"],
  summary: "Edit a tag protections for a repository. Only fields that are set will be changed",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  body: api.EditTagProtectionOption,
  bodyRequired: false,
  responses: {
    200: { description: "TagProtection", schema: api.TagProtection },
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, body, repo: access }) {
    const view = await c.get("services").tagProtections.edit(access.repo, params.id, protectionInput(body));
    return c.json(toApiTagProtection(view));
  },
});

export const repoDeleteTagProtection = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/tag_protections/{id}",
  operationId: "repoDeleteTagProtection",
  tags: ["repository"],
  summary: "Delete a specific tag protection for the repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  responses: {
    ...empty,
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    await c.get("services").tagProtections.delete(access.repo, params.id);
    return c.body(null, 204);
  },
});

export const tagProtectionRoutes = [
  repoListTagProtection,
  repoCreateTagProtection,
  repoGetTagProtection,
  repoEditTagProtection,
  repoDeleteTagProtection,
];
