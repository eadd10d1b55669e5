import { type ActionScope, api, type ScopeCategory } from "@kiln/domain";
import type { OrgNeed, RepoNeed } from "@kiln/service";
import * as v from "valibot";
import type { Access, AnyRoute, RouteInput } from "../../route.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import {
  badRequest,
  createVariable,
  deleteSecret,
  deleteVariable,
  getVariable,
  listQuery,
  listSecrets,
  listVariables,
  putSecret,
  secretNameParam,
  updateVariable,
  variableNameParam,
} from "./action.js";

// biome-ignore lint/suspicious/noExplicitAny: one factory serves scopes whose inputs differ
type AnyInput = RouteInput<any, any, any, any, any>;

/** An operation's Forgejo name and summary, which Forgejo words differently in each scope. */
type Named = readonly [operationId: string, summary: string];

/**
 * One scope of Actions secrets and variables (Forgejo's actions.API, implemented per scope by
 * routers/api/v1/{repo,org,user}/action.go): where they live, who may reach them, and the names
 * Forgejo gives each operation there.
 */
export interface ActionSettingFamily {
  /** The scope's path, e.g. `/orgs/{org}/actions`. */
  readonly path: string;
  readonly tags: readonly string[];
  readonly access: Access;
  readonly scopes: readonly ScopeCategory[];
  readonly repo?: RepoNeed;
  readonly org?: OrgNeed;
  /** The path parameters of the scope (the repository's or organization's). */
  readonly params: v.ObjectEntries;
  /** How Forgejo names the level in its response descriptions (`org` → "a org-level variable"). */
  readonly level: "user" | "org" | "repo";
  readonly scope: (input: AnyInput) => ActionScope;
  readonly names: {
    /** Absent where Forgejo lists no secrets (the user scope). */
    readonly listSecrets?: Named;
    readonly putSecret: Named;
    readonly deleteSecret: Named;
    readonly listVariables: Named;
    readonly getVariable: Named;
    readonly createVariable: Named;
    readonly updateVariable: Named;
    readonly deleteVariable: Named;
  };
}

/** The secrets and variables routes of one scope, in Forgejo's order. */
export function actionSettingRoutes(family: ActionSettingFamily): AnyRoute[] {
  const base = {
    tags: family.tags,
    access: family.access,
    scopes: family.scopes,
    ...(family.repo ? { repo: family.repo } : {}),
    ...(family.org ? { org: family.org } : {}),
  };
  const scopeParams = Object.keys(family.params).length ? { params: v.object(family.params) } : {};
  const secretParams = v.object({ ...family.params, ...secretNameParam });
  const variableParams = v.object({ ...family.params, ...variableNameParam });
  const secrets = `${family.path}/secrets`;
  const variables = `${family.path}/variables`;
  const named = ([operationId, summary]: Named) => ({ operationId, summary });
  const { names } = family;
  const listSecretsRoute = names.listSecrets
    ? [
        route({
          ...base,
          ...named(names.listSecrets),
          method: "get",
          path: secrets,
          ...scopeParams,
          query: listQuery,
          responses: {
            200: { description: "SecretList", schema: v.array(api.Secret) },
            ...forbidden,
            ...notFound,
          },
          handler: (c, input: AnyInput) => listSecrets(c, input.query, family.scope(input)),
        }),
      ]
    : [];
  return [
    ...listSecretsRoute,
    route({
      ...base,
      ...named(names.putSecret),
      method: "put",
      path: `${secrets}/{secretname}`,
      params: secretParams,
      body: api.CreateOrUpdateSecretOption,
      responses: {
        201: { description: "response when creating a secret", schema: "empty" },
        204: { description: "response when updating a secret", schema: "empty" },
        ...badRequest,
        ...forbidden,
        ...notFound,
        ...validationError,
      },
      handler: (c, input: AnyInput) =>
        putSecret(c, family.scope(input), input.params.secretname, input.body.data),
    }),
    route({
      ...base,
      ...named(names.deleteSecret),
      method: "delete",
      path: `${secrets}/{secretname}`,
      params: secretParams,
      responses: { ...empty, ...badRequest, ...forbidden, ...notFound },
      handler: (c, input: AnyInput) => deleteSecret(c, family.scope(input), input.params.secretname),
    }),
    route({
      ...base,
      ...named(names.listVariables),
      method: "get",
      path: variables,
      ...scopeParams,
      query: listQuery,
      responses: {
        200: { description: "VariableList", schema: v.array(api.ActionVariable) },
        ...forbidden,
        ...notFound,
      },
      handler: (c, input: AnyInput) => listVariables(c, input.query, family.scope(input)),
    }),
    route({
      ...base,
      ...named(names.getVariable),
      method: "get",
      path: `${variables}/{variablename}`,
      params: variableParams,
      responses: {
        200: { description: "ActionVariable", schema: api.ActionVariable },
        ...forbidden,
        ...notFound,
      },
      handler: (c, input: AnyInput) => getVariable(c, family.scope(input), input.params.variablename),
    }),
    route({
      ...base,
      ...named(names.createVariable),
      method: "post",
      path: `${variables}/{variablename}`,
      params: variableParams,
      body: api.CreateVariableOption,
      responses: {
        204: { description: `response when creating a ${family.level}-level variable`, schema: "empty" },
        ...badRequest,
        ...forbidden,
        ...notFound,
        409: { description: "a variable of that name exists", schema: api.APIError },
        ...validationError,
      },
      handler: (c, input: AnyInput) =>
        createVariable(c, family.scope(input), input.params.variablename, input.body.value),
    }),
    route({
      ...base,
      ...named(names.updateVariable),
      method: "put",
      path: `${variables}/{variablename}`,
      params: variableParams,
      body: api.UpdateVariableOption,
      responses: {
        204: { description: `response when updating a ${family.level}-level variable`, schema: "empty" },
        ...badRequest,
        ...forbidden,
        ...notFound,
        409: { description: "the new name is another variable's", schema: api.APIError },
        ...validationError,
      },
      handler: (c, input: AnyInput) =>
        updateVariable(c, family.scope(input), input.params.variablename, input.body),
    }),
    route({
      ...base,
      ...named(names.deleteVariable),
      method: "delete",
      path: `${variables}/{variablename}`,
      params: variableParams,
      responses: {
        204: { description: "response when deleting a variable", schema: "empty" },
        ...badRequest,
        ...forbidden,
        ...notFound,
      },
      handler: (c, input: AnyInput) => deleteVariable(c, family.scope(input), input.params.variablename),
    }),
  ];
}
