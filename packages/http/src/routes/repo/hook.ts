import { hookScope } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound } from "../responses.js";
import { hookRoutes } from "../shared/hook-routes.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/hook.go: a repository's webhooks, for its administrators. */
const repoHooks = hookRoutes({
  name: "repo",
  path: "/repos/{owner}/{repo}/hooks",
  tags: ["repository"],
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: repoParams,
  summaries: {
    list: "List the hooks in a repository",
    edit: "Edit a hook in a repository",
    delete: "Delete a hook in a repository",
  },
  scope: ({ repo }) => hookScope.repo(repo!.repo),
  home: ({ repo }) => `${repo!.repo.ownerName}/${repo!.repo.name}`,
});

const idParams = v.object({ ...repoParams, id: qs.int("id of the hook") });

export const repoTestHook = route({
  method: "post",
  path: "/repos/{owner}/{repo}/hooks/{id}/tests",
  operationId: "repoTestHook",
  tags: ["repository"],
  summary: "Test a push webhook",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  query: v.object({
    ref: v.optional(
      v.pipe(
        qs.string(
          "The name of the commit/branch/tag, indicates which commit will be loaded to the webhook payload.",
        ),
        v.maxLength(255),
      ),
    ),
  }),
  responses: { 204: { description: "APIEmpty", schema: "empty" }, ...forbidden, ...notFound },
  async handler(c, { params, query, principal, repo: access }) {
    await c
      .get("services")
      .webhooks.test(
        hookScope.repo(access.repo),
        params.id,
        access.repo,
        requirePrincipal(principal).user,
        query.ref,
      );
    return c.body(null, 204);
  },
});

/** The family's routes, with the push test before the delivery history as Forgejo lists them. */
export const repoHookRoutes = [...repoHooks.slice(0, 5), repoTestHook, ...repoHooks.slice(5)];
