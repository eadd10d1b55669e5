import { api } from "@kiln/domain";
import { hookScope } from "@kiln/service";
import * as v from "valibot";
import { toApiHook, toApiHookDelivery } from "../../convert/hook.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";
import { createHookInput, editHookInput } from "../shared/hook.js";

/**
 * Forgejo's routers/api/v1/admin/hooks.go: the site's system hooks (every repository's events)
 * and default hooks (applied to repositories created after them), for site administrators.
 */

const idParams = v.object({ id: qs.int("id of the hook") });

export const adminListHooks = route({
  method: "get",
  path: "/admin/hooks",
  operationId: "adminListHooks",
  tags: ["admin"],
  summary: "List system's webhooks",
  access: "site-admin",
  scopes: ["admin"],
  query: v.object({
    ...pageQuery,
    type: v.optional(
      qs.enum(["system", "default", "all"], "system, default or both kinds of webhooks (default: all)"),
    ),
  }),
  responses: { 200: { description: "HookList", schema: v.array(api.Hook) }, ...forbidden, ...notFound },
  handler(c, { query }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").webhooks.hooks.list(hookScope.admin(query.type ?? "all"), page),
      (hook) => toApiHook(hook, "admin", c.get("settings")),
    );
  },
});

export const adminCreateHook = route({
  method: "post",
  path: "/admin/hooks",
  operationId: "adminCreateHook",
  tags: ["admin"],
  summary: "Create a hook",
  access: "site-admin",
  scopes: ["admin"],
  body: api.CreateHookOption,
  responses: {
    201: { description: "Hook", schema: api.Hook },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { body }) {
    const view = await c.get("services").webhooks.hooks.create(hookScope.admin(), createHookInput(body));
    return c.json(toApiHook(view, "admin", c.get("settings")), 201);
  },
});

export const adminGetHook = route({
  method: "get",
  path: "/admin/hooks/{id}",
  operationId: "adminGetHook",
  tags: ["admin"],
  summary: "Get a hook",
  access: "site-admin",
  scopes: ["admin"],
  params: idParams,
  responses: { 200: { description: "Hook", schema: api.Hook }, ...forbidden, ...notFound },
  async handler(c, { params }) {
    const view = await c.get("services").webhooks.hooks.get(hookScope.admin(), params.id);
    return c.json(toApiHook(view, "admin", c.get("settings")));
  },
});

export const adminEditHook = route({
  method: "patch",
  path: "/admin/hooks/{id}",
  operationId: "adminEditHook",
  tags: ["admin"],
  summary: "Update a hook",
  access: "site-admin",
  scopes: ["admin"],
  params: idParams,
  body: api.EditHookOption,
  bodyRequired: false,
  responses: {
    200: { description: "Hook", schema: api.Hook },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body }) {
    const view = await c
      .get("services")
      .webhooks.hooks.edit(hookScope.admin(), params.id, editHookInput(body));
    return c.json(toApiHook(view, "admin", c.get("settings")));
  },
});

export const adminDeleteHook = route({
  method: "delete",
  path: "/admin/hooks/{id}",
  operationId: "adminDeleteHook",
  tags: ["admin"],
  summary: "Delete a hook",
  access: "site-admin",
  scopes: ["admin"],
  params: idParams,
  responses: { 204: { description: "APIEmpty", schema: "empty" }, ...forbidden, ...notFound },
  async handler(c, { params }) {
    await c.get("services").webhooks.hooks.delete(hookScope.admin(), params.id);
    return c.body(null, 204);
  },
});

export const adminListHookDeliveries = route({
  method: "get",
  path: "/admin/hooks/{id}/deliveries",
  operationId: "adminListHookDeliveries",
  extension:
    "Kiln's specification asks for a delivery history per hook; Forgejo shows it only in its web UI, so Kiln lists it here",
  tags: ["admin"],
  summary: "List a hook's deliveries, newest first (Kiln)",
  access: "site-admin",
  scopes: ["admin"],
  params: idParams,
  query: v.object(pageQuery),
  responses: {
    200: { description: "HookDeliveryList", schema: v.array(api.HookDelivery) },
    ...forbidden,
    ...notFound,
  },
  handler(c, { params, query }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").webhooks.hooks.deliveries(hookScope.admin(), params.id, page),
      toApiHookDelivery,
    );
  },
});

export const adminHookRoutes = [
  adminListHooks,
  adminCreateHook,
  adminGetHook,
  adminEditHook,
  adminDeleteHook,
  adminListHookDeliveries,
];
