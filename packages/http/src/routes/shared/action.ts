import type { ActionScope } from "@kiln/domain";
import { api } from "@kiln/domain";
import { toApiSecret, toApiVariable } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";

/**
 * What the Actions settings routes of repositories, organizations and users share (Forgejo's
 * actions.API implemented by routers/api/v1/{repo,org,user}/action.go): one handler per
 * operation, given the scope the route resolved.
 */

/** Forgejo's 400 `error` response (a bad secret or variable name). */
export const badRequest = { 400: { description: "error", schema: api.APIError } } as const;

export const secretNameParam = { secretname: qs.string("name of the secret") };
export const variableNameParam = { variablename: qs.string("name of the variable") };
export const listQuery = v.object(pageQuery);

/** The secrets of a scope, a page of them (names and times only). */
export function listSecrets(c: AppContext, query: v.InferOutput<typeof listQuery>, scope: ActionScope) {
  const service = c.get("services").actionSettings;
  return pagedJson(c, query, (page) => service.listSecrets(c.get("actor"), scope, page), toApiSecret);
}

/** Creates (201) or updates (204) a secret. */
export async function putSecret(c: AppContext, scope: ActionScope, name: string, data: string) {
  const created = await c.get("services").actionSettings.putSecret(c.get("actor"), scope, name, data);
  return c.body(null, created ? 201 : 204);
}

export async function deleteSecret(c: AppContext, scope: ActionScope, name: string) {
  await c.get("services").actionSettings.deleteSecret(c.get("actor"), scope, name);
  return c.body(null, 204);
}

export function listVariables(c: AppContext, query: v.InferOutput<typeof listQuery>, scope: ActionScope) {
  const service = c.get("services").actionSettings;
  return pagedJson(c, query, (page) => service.listVariables(c.get("actor"), scope, page), toApiVariable);
}

export async function getVariable(c: AppContext, scope: ActionScope, name: string) {
  return c.json(
    toApiVariable(await c.get("services").actionSettings.getVariable(c.get("actor"), scope, name)),
  );
}

/** Creates a variable: 204, as Forgejo answers. */
export async function createVariable(c: AppContext, scope: ActionScope, name: string, value: string) {
  await c.get("services").actionSettings.createVariable(c.get("actor"), scope, name, value);
  return c.body(null, 204);
}

export async function updateVariable(
  c: AppContext,
  scope: ActionScope,
  name: string,
  body: v.InferOutput<typeof api.UpdateVariableOption>,
) {
  await c.get("services").actionSettings.updateVariable(c.get("actor"), scope, name, body);
  return c.body(null, 204);
}

export async function deleteVariable(c: AppContext, scope: ActionScope, name: string) {
  await c.get("services").actionSettings.deleteVariable(c.get("actor"), scope, name);
  return c.body(null, 204);
}

/** The registration token of a runner scope, as Forgejo's `{"token": …}`. */
export async function registrationToken(
  c: AppContext,
  scope: { readonly global: true } | { readonly ownerId: number } | { readonly repoId: number },
) {
  const token = await c.get("services").runnerTokens.token(c.get("actor"), scope);
  // A credential: never kept by a cache on the way.
  c.header("Cache-Control", "no-store");
  return c.json({ token });
}

/** The `labels` query of a job search. */
export const labelsQuery = v.object({
  labels: v.optional(
    v.pipe(qs.string("a comma separated list of run job labels to search for"), v.maxLength(4096)),
  ),
});

/** Forgejo's label list: the comma-separated labels, trimmed; none when the parameter is absent. */
export function labelsOf(query: v.InferOutput<typeof labelsQuery>): string[] {
  const text = query.labels?.trim() ?? "";
  return text === "" ? [] : text.split(",");
}
