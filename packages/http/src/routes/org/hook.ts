import { api } from "@kiln/domain";
import { hookScope } from "@kiln/service";
import * as v from "valibot";
import { toApiHook, toApiHookDelivery } from "../../convert/hook.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";
import { createHookInput, editHookInput } from "../shared/hook.js";

/** Forgejo's routers/api/v1/org/hook.go: an organization's webhooks, for its owners. */

const orgParam = v.object({ org: v.string() });
const idParams = v.object({ org: v.string(), id: qs.int("id of the hook") });

export const orgListHooks = route({
  method: "get",
  path: "/orgs/{org}/hooks",
  operationId: "orgListHooks",
  tags: ["organization"],
  summary: "List an organization's webhooks",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  query: v.object(pageQuery),
  responses: { 200: { description: "HookList", schema: v.array(api.Hook) }, ...forbidden, ...notFound },
  handler(c, { query, org: { org } }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").webhooks.hooks.list(hookScope.owner(org), page),
      (hook) => toApiHook(hook, org.name, c.get("settings")),
    );
  },
});

export const orgCreateHook = route({
  method: "post",
  path: "/orgs/{org}/hooks",
  operationId: "orgCreateHook",
  tags: ["organization"],
  summary: "Create a hook",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: orgParam,
  body: api.CreateHookOption,
  responses: {
    201: { description: "Hook", schema: api.Hook },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { body, org: { org } }) {
    const view = await c.get("services").webhooks.hooks.create(hookScope.owner(org), createHookInput(body));
    return c.json(toApiHook(view, org.name, c.get("settings")), 201);
  },
});

export const orgGetHook = route({
  method: "get",
  path: "/orgs/{org}/hooks/{id}",
  operationId: "orgGetHook",
  tags: ["organization"],
  summary: "Get a hook",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: idParams,
  responses: { 200: { description: "Hook", schema: api.Hook }, ...forbidden, ...notFound },
  async handler(c, { params, org: { org } }) {
    const view = await c.get("services").webhooks.hooks.get(hookScope.owner(org), params.id);
    return c.json(toApiHook(view, org.name, c.get("settings")));
  },
});

export const orgEditHook = route({
  method: "patch",
  path: "/orgs/{org}/hooks/{id}",
  operationId: "orgEditHook",
  tags: ["organization"],
  summary: "Update a hook",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: idParams,
  body: api.EditHookOption,
  bodyRequired: false,
  responses: {
    200: { description: "Hook", schema: api.Hook },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, org: { org } }) {
    const view = await c
      .get("services")
      .webhooks.hooks.edit(hookScope.owner(org), params.id, editHookInput(body));
    return c.json(toApiHook(view, org.name, c.get("settings")));
  },
});

export const orgDeleteHook = route({
  method: "delete",
  path: "/orgs/{org}/hooks/{id}",
  operationId: "orgDeleteHook",
  tags: ["organization"],
  summary: "Delete a hook",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: idParams,
  responses: { 204: { description: "APIEmpty", schema: "empty" }, ...forbidden, ...notFound },
  async handler(c, { params, org: { org } }) {
    await c.get("services").webhooks.hooks.delete(hookScope.owner(org), params.id);
    return c.body(null, 204);
  },
});

export const orgListHookDeliveries = route({
  method: "get",
  path: "/orgs/{org}/hooks/{id}/deliveries",
  operationId: "orgListHookDeliveries",
  extension:
    "Kiln's specification asks for a delivery history per hook; Forgejo shows it only in its web UI, so Kiln lists it here",
  tags: ["organization"],
  summary: "List a hook's deliveries, newest first (Kiln)",
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: idParams,
  query: v.object(pageQuery),
  responses: {
    200: { description: "HookDeliveryList", schema: v.array(api.HookDelivery) },
    ...forbidden,
    ...notFound,
  },
  handler(c, { params, query, org: { org } }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").webhooks.hooks.deliveries(hookScope.owner(org), params.id, page),
      toApiHookDelivery,
    );
  },
});

export const orgHookRoutes = [
  orgListHooks,
  orgCreateHook,
  orgGetHook,
  orgEditHook,
  orgDeleteHook,
  orgListHookDeliveries,
];
