import { api, type ScopeCategory } from "@kiln/domain";
import { type hookScope, type OrgNeed, type RepoNeed, toApiHook, toApiHookDelivery } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { type Access, type AnyRoute, type RouteInput, route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";
import { createHookInput, editHookInput } from "./hook.js";

type HookScope = ReturnType<typeof hookScope.owner>;
// biome-ignore lint/suspicious/noExplicitAny: one factory serves families whose inputs differ
type AnyInput = RouteInput<any, any, any, any, any>;

/**
 * One family of webhook routes (Forgejo shares them the same way, routers/api/v1/utils/hook.go):
 * the site's, a user's, an organization's or a repository's hooks. The family says where its
 * hooks live and who may reach them; the six operations are the same for all four.
 */
export interface HookFamily {
  /** The operationId prefix (`user` → `userListHooks`). */
  readonly name: "admin" | "user" | "org" | "repo";
  /** The collection's path, e.g. `/orgs/{org}/hooks`. */
  readonly path: string;
  readonly tags: readonly string[];
  readonly access: Access;
  readonly scopes: readonly ScopeCategory[];
  readonly repo?: RepoNeed;
  readonly org?: OrgNeed;
  /** The path parameters of the collection (the repository's or organization's). */
  readonly params: v.ObjectEntries;
  /** Summaries that differ from the shared ones, as Forgejo words them per family. */
  readonly summaries: { readonly list: string; readonly edit?: string; readonly delete?: string };
  /** Extra query parameters of the list (the admin list's `type`). */
  readonly listQuery?: v.ObjectEntries;
  /** Where the hooks of this request live, and the list's scope when the query narrows it. */
  readonly scope: (input: AnyInput, forList?: true) => HookScope;
  /** The name a hook's owner shows as in its `url`-free API shape (Forgejo's owner/repo or name). */
  readonly home: (input: AnyInput) => string;
}

/** The six routes of a family: list, create, get, edit, delete, and the delivery history (Kiln). */
export function hookRoutes(family: HookFamily): AnyRoute[] {
  const base = {
    tags: family.tags,
    access: family.access,
    scopes: family.scopes,
    ...(family.repo ? { repo: family.repo } : {}),
    ...(family.org ? { org: family.org } : {}),
  };
  const collection = Object.keys(family.params).length ? { params: v.object(family.params) } : {};
  const item = v.object({ ...family.params, id: qs.int("id of the hook") });
  const hooks = (c: AppContext) => c.get("services").webhooks.hooks;
  const show = (c: AppContext, input: AnyInput) => (hook: Parameters<typeof toApiHook>[0]) =>
    toApiHook(hook, family.home(input), c.get("settings"));
  const at = `${family.path}/{id}`;
  const id = (suffix: string) => `${family.name}${suffix}`;
  const hookResponse = { description: "Hook", schema: api.Hook };
  return [
    route({
      ...base,
      method: "get",
      path: family.path,
      operationId: id("ListHooks"),
      summary: family.summaries.list,
      ...collection,
      query: v.object({ ...pageQuery, ...family.listQuery }),
      responses: { 200: { description: "HookList", schema: v.array(api.Hook) }, ...forbidden, ...notFound },
      handler(c, input: AnyInput) {
        const scope = family.scope(input, true);
        return pagedJson(c, input.query, (page) => hooks(c).list(scope, page), show(c, input));
      },
    }),
    route({
      ...base,
      method: "post",
      path: family.path,
      operationId: id("CreateHook"),
      summary: "Create a hook",
      ...collection,
      body: api.CreateHookOption,
      responses: { 201: hookResponse, ...forbidden, ...notFound, ...validationError },
      async handler(c, input: AnyInput) {
        const view = await hooks(c).create(family.scope(input), createHookInput(input.body));
        return c.json(show(c, input)(view), 201);
      },
    }),
    route({
      ...base,
      method: "get",
      path: at,
      operationId: id("GetHook"),
      summary: "Get a hook",
      params: item,
      responses: { 200: hookResponse, ...forbidden, ...notFound },
      async handler(c, input: AnyInput) {
        return c.json(show(c, input)(await hooks(c).get(family.scope(input), input.params.id)));
      },
    }),
    route({
      ...base,
      method: "patch",
      path: at,
      operationId: id("EditHook"),
      summary: family.summaries.edit ?? "Update a hook",
      params: item,
      body: api.EditHookOption,
      bodyRequired: false,
      responses: { 200: hookResponse, ...forbidden, ...notFound, ...validationError },
      async handler(c, input: AnyInput) {
        const view = await hooks(c).edit(family.scope(input), input.params.id, editHookInput(input.body));
        return c.json(show(c, input)(view));
      },
    }),
    route({
      ...base,
      method: "delete",
      path: at,
      operationId: id("DeleteHook"),
      summary: family.summaries.delete ?? "Delete a hook",
      params: item,
      responses: { 204: { description: "APIEmpty", schema: "empty" }, ...forbidden, ...notFound },
      async handler(c, input: AnyInput) {
        await hooks(c).delete(family.scope(input), input.params.id);
        return c.body(null, 204);
      },
    }),
    route({
      ...base,
      method: "get",
      path: `${at}/deliveries`,
      operationId: id("ListHookDeliveries"),
      extension:
        "Kiln's specification asks for a delivery history per hook; Forgejo shows it only in its web UI, so Kiln lists it here",
      summary: "List a hook's deliveries, newest first (Kiln)",
      params: item,
      query: v.object(pageQuery),
      responses: {
        200: { description: "HookDeliveryList", schema: v.array(api.HookDelivery) },
        ...forbidden,
        ...notFound,
      },
      handler(c, input: AnyInput) {
        const scope = family.scope(input);
        return pagedJson(
          c,
          input.query,
          (page) => hooks(c).deliveries(scope, input.params.id, page),
          toApiHookDelivery,
        );
      },
    }),
  ];
}
