import { api } from "@kiln/domain";
import { hookScope } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { toApiHook, toApiHookDelivery } from "../../convert/hook.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";
import { createHookInput, editHookInput } from "../shared/hook.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/hook.go: a repository's webhooks, for its administrators. */

const idParams = v.object({ ...repoParams, id: qs.int("id of the hook") });
const home = (ctx: { repo: { ownerName: string; name: string } }) => `${ctx.repo.ownerName}/${ctx.repo.name}`;

export const repoListHooks = route({
  method: "get",
  path: "/repos/{owner}/{repo}/hooks",
  operationId: "repoListHooks",
  tags: ["repository"],
  summary: "List the hooks in a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object(pageQuery),
  responses: { 200: { description: "HookList", schema: v.array(api.Hook) }, ...forbidden, ...notFound },
  handler(c, { query, repo: ctx }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").webhooks.hooks.list(hookScope.repo(ctx.repo), page),
      (hook) => toApiHook(hook, home(ctx), c.get("settings")),
    );
  },
});

export const repoCreateHook = route({
  method: "post",
  path: "/repos/{owner}/{repo}/hooks",
  operationId: "repoCreateHook",
  tags: ["repository"],
  summary: "Create a hook",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreateHookOption,
  responses: {
    201: { description: "Hook", schema: api.Hook },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { body, repo: ctx }) {
    const view = await c
      .get("services")
      .webhooks.hooks.create(hookScope.repo(ctx.repo), createHookInput(body));
    return c.json(toApiHook(view, home(ctx), c.get("settings")), 201);
  },
});

export const repoGetHook = route({
  method: "get",
  path: "/repos/{owner}/{repo}/hooks/{id}",
  operationId: "repoGetHook",
  tags: ["repository"],
  summary: "Get a hook",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  responses: { 200: { description: "Hook", schema: api.Hook }, ...forbidden, ...notFound },
  async handler(c, { params, repo: ctx }) {
    const view = await c.get("services").webhooks.hooks.get(hookScope.repo(ctx.repo), params.id);
    return c.json(toApiHook(view, home(ctx), c.get("settings")));
  },
});

export const repoEditHook = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/hooks/{id}",
  operationId: "repoEditHook",
  tags: ["repository"],
  summary: "Edit a hook in a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  body: api.EditHookOption,
  bodyRequired: false,
  responses: {
    200: { description: "Hook", schema: api.Hook },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo: ctx }) {
    const view = await c
      .get("services")
      .webhooks.hooks.edit(hookScope.repo(ctx.repo), params.id, editHookInput(body));
    return c.json(toApiHook(view, home(ctx), c.get("settings")));
  },
});

export const repoDeleteHook = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/hooks/{id}",
  operationId: "repoDeleteHook",
  tags: ["repository"],
  summary: "Delete a hook in a repository",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  responses: { 204: { description: "APIEmpty", schema: "empty" }, ...forbidden, ...notFound },
  async handler(c, { params, repo: ctx }) {
    await c.get("services").webhooks.hooks.delete(hookScope.repo(ctx.repo), params.id);
    return c.body(null, 204);
  },
});

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
  async handler(c, { params, query, principal, repo: ctx }) {
    await c
      .get("services")
      .webhooks.test(
        hookScope.repo(ctx.repo),
        params.id,
        ctx.repo,
        requirePrincipal(principal).user,
        query.ref,
      );
    return c.body(null, 204);
  },
});

export const repoListHookDeliveries = route({
  method: "get",
  path: "/repos/{owner}/{repo}/hooks/{id}/deliveries",
  operationId: "repoListHookDeliveries",
  extension:
    "Kiln's specification asks for a delivery history per hook; Forgejo shows it only in its web UI, so Kiln lists it here",
  tags: ["repository"],
  summary: "List a hook's deliveries, newest first (Kiln)",
  access: "signed-in",
  repo: "admin",
  scopes: ["repository"],
  params: idParams,
  query: v.object(pageQuery),
  responses: {
    200: { description: "HookDeliveryList", schema: v.array(api.HookDelivery) },
    ...forbidden,
    ...notFound,
  },
  handler(c, { params, query, repo: ctx }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").webhooks.hooks.deliveries(hookScope.repo(ctx.repo), params.id, page),
      toApiHookDelivery,
    );
  },
});

export const repoHookRoutes = [
  repoListHooks,
  repoCreateHook,
  repoGetHook,
  repoEditHook,
  repoDeleteHook,
  repoTestHook,
  repoListHookDeliveries,
];
