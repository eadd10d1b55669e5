import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";

/** Forgejo's routers/api/v1/admin/adopt.go: repositories on disk that have no row. */

const repoPath = v.object({ owner: v.string(), repo: v.string() });

export const adminUnadoptedList = route({
  method: "get",
  path: "/admin/unadopted",
  operationId: "adminUnadoptedList",
  tags: ["admin"],
  summary: "List unadopted repositories",
  access: "site-admin",
  scopes: ["admin"],
  query: v.object({
    pattern: v.optional(
      v.pipe(qs.string("pattern of repositories to search for"), v.maxLength(200, "pattern is too long")),
    ),
    ...pageQuery,
  }),
  responses: { 200: { description: "StringSlice", schema: v.array(v.string()) }, ...forbidden },
  handler(c, { query }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").unadopted.list(query.pattern ?? "", page),
      (name) => name,
    );
  },
});

export const adminAdoptRepository = route({
  method: "post",
  path: "/admin/unadopted/{owner}/{repo}",
  operationId: "adminAdoptRepository",
  tags: ["admin"],
  summary: "Adopt unadopted files as a repository",
  access: "site-admin",
  scopes: ["admin"],
  params: repoPath,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, principal }) {
    const admin = requirePrincipal(principal).user;
    await c.get("services").unadopted.adopt(params.owner, params.repo, admin.id);
    return c.body(null, 204);
  },
});

export const adminDeleteUnadoptedRepository = route({
  method: "delete",
  path: "/admin/unadopted/{owner}/{repo}",
  operationId: "adminDeleteUnadoptedRepository",
  tags: ["admin"],
  summary: "Delete unadopted files",
  access: "site-admin",
  scopes: ["admin"],
  params: repoPath,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params }) {
    await c.get("services").unadopted.deleteFiles(params.owner, params.repo);
    return c.body(null, 204);
  },
});

export const adminAdoptRoutes = [adminUnadoptedList, adminAdoptRepository, adminDeleteUnadoptedRepository];
