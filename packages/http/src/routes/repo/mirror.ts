import { api } from "@kiln/domain";
import { toApiPushMirror } from "@kiln/service";
import * as v from "valibot";
import { pagedJson } from "../../pagination.js";
import { pageQuery } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, quotaExceeded, repoArchived } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/mirror.go: syncing a pull mirror, and a repository's push mirrors
 * (for its administrators). Syncs run while the request waits (Forgejo queues a pull mirror's);
 * a failed sync is recorded in `last_error`, never answered as a server error.
 */

const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;
const nameParams = v.object({ ...repoParams, name: v.pipe(v.string(), v.maxLength(255)) });
const okEmpty = { 200: { description: "APIEmpty", schema: "empty" } } as const;

export const repoMirrorSync = route({
  method: "post",
  path: "/repos/{owner}/{repo}/mirror-sync",
  operationId: "repoMirrorSync",
  tags: ["repository"],
  summary: "Sync a mirrored repository",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  notArchived: true,
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { ...okEmpty, ...badRequest, ...forbidden, ...notFound, ...quotaExceeded, ...repoArchived },
  quota: { subject: "size:git:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { repo: access }) {
    await c.get("services").pullMirrors.requestSync(access.repo);
    return c.body(null, 200);
  },
});

export const repoPushMirrorSync = route({
  method: "post",
  path: "/repos/{owner}/{repo}/push_mirrors-sync",
  operationId: "repoPushMirrorSync",
  tags: ["repository"],
  summary: "Sync all push mirrored repository",
  access: "signed-in",
  repo: "admin",
  notArchived: true,
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { ...okEmpty, ...badRequest, ...forbidden, ...notFound, ...repoArchived },
  async handler(c, { repo: access }) {
    await c.get("services").pushMirrors.syncAll(access.repo);
    return c.body(null, 200);
  },
});

export const repoListPushMirrors = route({
  method: "get",
  path: "/repos/{owner}/{repo}/push_mirrors",
  operationId: "repoListPushMirrors",
  tags: ["repository"],
  summary: "Get all push mirrors of the repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: {
    200: { description: "PushMirrorList", schema: v.array(api.PushMirror) },
    ...badRequest,
    ...forbidden,
    ...notFound,
  },
  handler(c, { query, repo: access }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").pushMirrors.list(access.repo, page),
      (row) => toApiPushMirror(access.repo, row),
    );
  },
});

export const repoAddPushMirror = route({
  method: "post",
  path: "/repos/{owner}/{repo}/push_mirrors",
  operationId: "repoAddPushMirror",
  tags: ["repository"],
  summary: "add a push mirror to the repository",
  access: "signed-in",
  repo: "admin",
  notArchived: true,
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreatePushMirrorOption,
  responses: {
    200: { description: "PushMirror", schema: api.PushMirror },
    ...badRequest,
    ...forbidden,
    ...notFound,
    422: { description: "APIValidationError", schema: api.APIError },
    ...repoArchived,
  },
  async handler(c, { body, repo: access }) {
    const row = await c.get("services").pushMirrors.add(access.repo, {
      remoteAddress: body.remote_address,
      remoteUsername: body.remote_username,
      remotePassword: body.remote_password,
      interval: body.interval,
      syncOnCommit: body.sync_on_commit,
      useSsh: body.use_ssh,
    });
    return c.json(toApiPushMirror(access.repo, row), 200);
  },
});

export const repoGetPushMirrorByRemoteName = route({
  method: "get",
  path: "/repos/{owner}/{repo}/push_mirrors/{name}",
  operationId: "repoGetPushMirrorByRemoteName",
  tags: ["repository"],
  summary: "Get push mirror of the repository by remoteName",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: nameParams,
  responses: {
    200: { description: "PushMirror", schema: api.PushMirror },
    ...badRequest,
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    const row = await c.get("services").pushMirrors.get(access.repo, params.name);
    return c.json(toApiPushMirror(access.repo, row));
  },
});

export const repoDeletePushMirror = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/push_mirrors/{name}",
  operationId: "repoDeletePushMirror",
  tags: ["repository"],
  summary: "deletes a push mirror from a repository by remoteName",
  access: "signed-in",
  repo: "admin",
  notArchived: true,
  scopes: ["repository"],
  params: nameParams,
  responses: {
    204: { description: "APIEmpty", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...repoArchived,
  },
  async handler(c, { params, repo: access }) {
    await c.get("services").pushMirrors.delete(access.repo, params.name);
    return c.body(null, 204);
  },
});

export const mirrorRoutes = [
  repoMirrorSync,
  repoPushMirrorSync,
  repoListPushMirrors,
  repoAddPushMirror,
  repoGetPushMirrorByRemoteName,
  repoDeletePushMirror,
];
