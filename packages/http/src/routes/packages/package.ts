import { api } from "@kiln/domain";
import { accountSight, toApiPackage, toApiPackageFile } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound } from "../responses.js";

/**
 * Forgejo's routers/api/v1/packages/package.go: the package management API (`/packages/{owner}`,
 * token scope `package`). The owner is resolved through the access module for the caller, so a
 * private user's or organization's packages, and packages linked to a repository the caller may
 * not see, are 404; deleting and linking need write access to the owner's packages (403).
 */

const bounded = (max: number) => v.pipe(v.string(), v.minLength(1), v.maxLength(max));
const versionParams = v.object({
  owner: bounded(255),
  type: bounded(64),
  name: bounded(255),
  version: bounded(255),
});
const packageParams = v.object({ owner: bounded(255), type: bounded(64), name: bounded(255) });

const common = { tags: ["package"], scopes: ["package"] } as const;

const ownerOf = (c: AppContext, name: string) => c.get("services").packages.owner(c.get("actor"), name);
const viewer = (c: AppContext) => c.get("actor").user;

export const listPackages = route({
  ...common,
  method: "get",
  path: "/packages/{owner}",
  operationId: "listPackages",
  summary: "Gets all packages of an owner",
  access: "public",
  params: v.object({ owner: bounded(255) }),
  query: v.object({
    ...pageQuery,
    type: v.optional(v.pipe(qs.string("package type filter"), v.maxLength(64))),
    q: v.optional(v.pipe(qs.string("name filter"), v.maxLength(255))),
  }),
  responses: { 200: { description: "PackageList", schema: api.PackageList }, ...notFound },
  handler: async (c, { params, query }) => {
    const owner = await ownerOf(c, params.owner);
    const type = query.type?.trim();
    const q = query.q?.trim();
    return pagedJson(
      c,
      query,
      (page) =>
        c
          .get("services")
          .packages.list(owner, { ...(type ? { type } : {}), ...(q ? { query: q } : {}) }, page),
      (view) => toApiPackage(view, accountSight(viewer(c)), c.get("settings")),
    );
  },
});

export const getPackage = route({
  ...common,
  method: "get",
  path: "/packages/{owner}/{type}/{name}/{version}",
  operationId: "getPackage",
  summary: "Gets a package",
  access: "public",
  params: versionParams,
  responses: { 200: { description: "Package", schema: api.Package }, ...notFound },
  handler: async (c, { params }) => {
    const owner = await ownerOf(c, params.owner);
    const packages = c.get("services").packages;
    const found = await packages.version(owner, params.type, params.name, params.version);
    const [view] = await packages.views(owner, [found]);
    return c.json(toApiPackage(view as NonNullable<typeof view>, accountSight(viewer(c)), c.get("settings")));
  },
});

export const deletePackage = route({
  ...common,
  method: "delete",
  path: "/packages/{owner}/{type}/{name}/{version}",
  operationId: "deletePackage",
  summary: "Delete a package",
  access: "signed-in",
  params: versionParams,
  responses: { ...empty, ...forbidden, ...notFound },
  handler: async (c, { params }) => {
    const owner = await ownerOf(c, params.owner);
    await c.get("services").packages.deleteVersion(owner, params.type, params.name, params.version);
    return c.body(null, 204);
  },
});

export const listPackageFiles = route({
  ...common,
  method: "get",
  path: "/packages/{owner}/{type}/{name}/{version}/files",
  operationId: "listPackageFiles",
  summary: "Gets all files of a package",
  access: "public",
  params: versionParams,
  responses: { 200: { description: "PackageFileList", schema: api.PackageFileList }, ...notFound },
  handler: async (c, { params }) => {
    const owner = await ownerOf(c, params.owner);
    const packages = c.get("services").packages;
    const found = await packages.version(owner, params.type, params.name, params.version);
    const files = (await packages.files([found.version.id])).get(found.version.id) ?? [];
    return c.json(files.map(toApiPackageFile));
  },
});

const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;

export const linkPackage = route({
  ...common,
  method: "post",
  path: "/packages/{owner}/{type}/{name}/-/link/{repo_name}",
  operationId: "linkPackage",
  summary: "Link a package to a repository",
  access: "signed-in",
  params: v.object({ ...packageParams.entries, repo_name: bounded(255) }),
  responses: { 201: { description: "APIEmpty", schema: "empty" }, ...badRequest, ...forbidden, ...notFound },
  handler: async (c, { params }) => {
    const owner = await ownerOf(c, params.owner);
    await c.get("services").packages.link(owner, params.type, params.name, params.repo_name);
    return c.body(null, 201);
  },
});

export const unlinkPackage = route({
  ...common,
  method: "post",
  path: "/packages/{owner}/{type}/{name}/-/unlink",
  operationId: "unlinkPackage",
  summary: "Unlink a package from a repository",
  access: "signed-in",
  params: packageParams,
  // Forgejo documents 201 and answers 204.
  responses: { ...empty, ...badRequest, ...forbidden, ...notFound },
  handler: async (c, { params }) => {
    const owner = await ownerOf(c, params.owner);
    await c.get("services").packages.unlink(owner, params.type, params.name);
    return c.body(null, 204);
  },
});

/** The package management routes, in Forgejo's order. */
export const packageRoutes = [
  getPackage,
  deletePackage,
  listPackageFiles,
  linkPackage,
  unlinkPackage,
  listPackages,
];
