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

/** Forgejo's routers/api/v1/user/hook.go: the signed-in user's own webhooks. */

const idParams = v.object({ id: qs.int("id of the hook") });

export const userListHooks = route({
  method: "get",
  path: "/user/hooks",
  operationId: "userListHooks",
  tags: ["user"],
  summary: "List the authenticated user's webhooks",
  access: "signed-in",
  scopes: ["user"],
  query: v.object(pageQuery),
  responses: { 200: { description: "HookList", schema: v.array(api.Hook) }, ...forbidden, ...notFound },
  handler(c, { query, principal }) {
    return pagedJson(
      c,
      query,
      (page) =>
        c.get("services").webhooks.hooks.list(hookScope.owner(requirePrincipal(principal).user), page),
      (hook) => toApiHook(hook, requirePrincipal(principal).user.name, c.get("settings")),
    );
  },
});

export const userCreateHook = route({
  method: "post",
  path: "/user/hooks",
  operationId: "userCreateHook",
  tags: ["user"],
  summary: "Create a hook",
  access: "signed-in",
  scopes: ["user"],
  body: api.CreateHookOption,
  responses: {
    201: { description: "Hook", schema: api.Hook },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { body, principal }) {
    const view = await c
      .get("services")
      .webhooks.hooks.create(hookScope.owner(requirePrincipal(principal).user), createHookInput(body));
    return c.json(toApiHook(view, requirePrincipal(principal).user.name, c.get("settings")), 201);
  },
});

export const userGetHook = route({
  method: "get",
  path: "/user/hooks/{id}",
  operationId: "userGetHook",
  tags: ["user"],
  summary: "Get a hook",
  access: "signed-in",
  scopes: ["user"],
  params: idParams,
  responses: { 200: { description: "Hook", schema: api.Hook }, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    const view = await c
      .get("services")
      .webhooks.hooks.get(hookScope.owner(requirePrincipal(principal).user), params.id);
    return c.json(toApiHook(view, requirePrincipal(principal).user.name, c.get("settings")));
  },
});

export const userEditHook = route({
  method: "patch",
  path: "/user/hooks/{id}",
  operationId: "userEditHook",
  tags: ["user"],
  summary: "Update a hook",
  access: "signed-in",
  scopes: ["user"],
  params: idParams,
  body: api.EditHookOption,
  bodyRequired: false,
  responses: {
    200: { description: "Hook", schema: api.Hook },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, principal }) {
    const view = await c
      .get("services")
      .webhooks.hooks.edit(hookScope.owner(requirePrincipal(principal).user), params.id, editHookInput(body));
    return c.json(toApiHook(view, requirePrincipal(principal).user.name, c.get("settings")));
  },
});

export const userDeleteHook = route({
  method: "delete",
  path: "/user/hooks/{id}",
  operationId: "userDeleteHook",
  tags: ["user"],
  summary: "Delete a hook",
  access: "signed-in",
  scopes: ["user"],
  params: idParams,
  responses: { 204: { description: "APIEmpty", schema: "empty" }, ...forbidden, ...notFound },
  async handler(c, { params, principal }) {
    await c
      .get("services")
      .webhooks.hooks.delete(hookScope.owner(requirePrincipal(principal).user), params.id);
    return c.body(null, 204);
  },
});

export const userListHookDeliveries = route({
  method: "get",
  path: "/user/hooks/{id}/deliveries",
  operationId: "userListHookDeliveries",
  extension:
    "Kiln's specification asks for a delivery history per hook; Forgejo shows it only in its web UI, so Kiln lists it here",
  tags: ["user"],
  summary: "List a hook's deliveries, newest first (Kiln)",
  access: "signed-in",
  scopes: ["user"],
  params: idParams,
  query: v.object(pageQuery),
  responses: {
    200: { description: "HookDeliveryList", schema: v.array(api.HookDelivery) },
    ...forbidden,
    ...notFound,
  },
  handler(c, { params, query, principal }) {
    return pagedJson(
      c,
      query,
      (page) =>
        c
          .get("services")
          .webhooks.hooks.deliveries(hookScope.owner(requirePrincipal(principal).user), params.id, page),
      toApiHookDelivery,
    );
  },
});

export const userHookRoutes = [
  userListHooks,
  userCreateHook,
  userGetHook,
  userEditHook,
  userDeleteHook,
  userListHookDeliveries,
];
