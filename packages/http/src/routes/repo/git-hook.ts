import { api } from "@kiln/domain";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/git_hook.go: repository admins (reqAdmin), then reqGitHook, which
 * Kiln answers for everyone as Forgejo does under its default `DISABLE_GIT_HOOKS = true` (403
 * "must be allowed to edit Git hooks"): Kiln never runs hook scripts users supply.
 */

const idParams = v.object({ ...repoParams, id: qs.string("id of the hook to get") });
const refused = { 403: { description: "APIForbiddenError", schema: api.APIError } } as const;

export const repoListGitHooks = route({
  method: "get",
  path: "/repos/{owner}/{repo}/hooks/git",
  operationId: "repoListGitHooks",
  tags: ["repository"],
  summary: "List the Git hooks in a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "GitHookList", schema: v.array(api.GitHook) },
    ...refused,
    ...notFound,
  },
  handler(c) {
    return c.get("services").gitHooks.assertEditable();
  },
});

export const repoGetGitHook = route({
  method: "get",
  path: "/repos/{owner}/{repo}/hooks/git/{id}",
  operationId: "repoGetGitHook",
  tags: ["repository"],
  summary: "Get a Git hook",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  responses: {
    200: { description: "GitHook", schema: api.GitHook },
    ...refused,
    ...notFound,
  },
  handler(c) {
    return c.get("services").gitHooks.assertEditable();
  },
});

export const repoEditGitHook = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/hooks/git/{id}",
  operationId: "repoEditGitHook",
  tags: ["repository"],
  summary: "Edit a Git hook in a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  body: api.EditGitHookOption,
  bodyRequired: false,
  responses: {
    200: { description: "GitHook", schema: api.GitHook },
    ...refused,
    ...notFound,
  },
  handler(c) {
    return c.get("services").gitHooks.assertEditable();
  },
});

export const repoDeleteGitHook = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/hooks/git/{id}",
  operationId: "repoDeleteGitHook",
  tags: ["repository"],
  summary: "Delete a Git hook in a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  responses: {
    ...empty,
    ...forbidden,
    ...notFound,
  },
  handler(c) {
    return c.get("services").gitHooks.assertEditable();
  },
});

export const gitHookRoutes = [repoListGitHooks, repoGetGitHook, repoEditGitHook, repoDeleteGitHook];
