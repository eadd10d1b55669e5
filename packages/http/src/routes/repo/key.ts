import { api } from "@kiln/domain";
import {
  accountSight,
  repoPermissionView,
  seesDeployKeyRepository,
  toApiDeployKey,
  toApiRepository,
} from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { type RepoContext, repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/key.go: deploy keys, for the repository's administrators
 * (reqToken + reqAdmin on the whole group). A key of another repository is 404 here.
 */

const deployKey = { description: "DeployKey", schema: api.DeployKey };
const idParams = v.object({ ...repoParams, id: qs.int("id of the key") });

/** Forgejo shows the repository of a deploy key to site admins and the repository's owner. */
function repositoryFor(c: AppContext, access: RepoContext) {
  if (!seesDeployKeyRepository(access)) return undefined;
  return toApiRepository(
    access.repo,
    access.owner,
    accountSight(access.viewer),
    repoPermissionView(access.permission),
    c.get("settings"),
  );
}

export const repoListKeys = route({
  method: "get",
  path: "/repos/{owner}/{repo}/keys",
  operationId: "repoListKeys",
  tags: ["repository"],
  summary: "List a repository's keys",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object({
    key_id: v.optional(qs.int("the key_id to search for")),
    fingerprint: v.optional(v.pipe(qs.string("fingerprint of the key"), v.maxLength(128))),
    ...pageQuery,
  }),
  responses: { 200: { description: "DeployKeyList", schema: v.array(api.DeployKey) }, ...notFound },
  handler(c, { query, repo: access }) {
    const repository = repositoryFor(c, access);
    return pagedJson(
      c,
      query,
      (page) =>
        c.get("services").sshKeys.listDeploy(access.repo, page, {
          ...(query.key_id !== undefined ? { keyId: query.key_id } : {}),
          ...(query.fingerprint ? { fingerprint: query.fingerprint } : {}),
        }),
      (key) => toApiDeployKey(key, access.repo, c.get("settings"), repository),
    );
  },
});

export const repoCreateKey = route({
  method: "post",
  path: "/repos/{owner}/{repo}/keys",
  operationId: "repoCreateKey",
  tags: ["repository"],
  summary: "Add a key to a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreateKeyOption,
  responses: { 201: deployKey, ...notFound, ...validationError },
  async handler(c, { body, repo: access }) {
    const key = await c
      .get("services")
      .sshKeys.createDeploy(access.repo, body.title, body.key, body.read_only === true);
    return c.json(toApiDeployKey(key, access.repo, c.get("settings")), 201);
  },
});

export const repoGetKey = route({
  method: "get",
  path: "/repos/{owner}/{repo}/keys/{id}",
  operationId: "repoGetKey",
  tags: ["repository"],
  summary: "Get a repository's key by id",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  responses: { 200: deployKey, ...notFound },
  async handler(c, { params, repo: access }) {
    const key = await c.get("services").sshKeys.getDeploy(access.repo, params.id);
    return c.json(toApiDeployKey(key, access.repo, c.get("settings"), repositoryFor(c, access)));
  },
});

export const repoDeleteKey = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/keys/{id}",
  operationId: "repoDeleteKey",
  tags: ["repository"],
  summary: "Delete a key from a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").sshKeys.deleteDeploy(access.repo, params.id);
    return c.body(null, 204);
  },
});

export const deployKeyRoutes = [repoListKeys, repoCreateKey, repoGetKey, repoDeleteKey];
