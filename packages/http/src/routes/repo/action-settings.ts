import { api } from "@kiln/domain";
import { actionScope } from "@kiln/service";
import * as v from "valibot";
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
} from "../shared/action.js";
import { repoParams } from "./context.js";

/**
 * A repository's Actions secrets and variables (Forgejo's routers/api/v1/repo/action.go, the
 * secrets and variables half), for the repository's owner (Forgejo's reqOwner: the owner, an
 * owner of its organization, a site admin).
 */

const secretParams = v.object({ ...repoParams, ...secretNameParam });
const variableParams = v.object({ ...repoParams, ...variableNameParam });
const common = { tags: ["repository"], access: "signed-in", repo: "owner", scopes: ["repository"] } as const;

export const repoListActionsSecrets = route({
  ...common,
  method: "get",
  path: "/repos/{owner}/{repo}/actions/secrets",
  operationId: "repoListActionsSecrets",
  summary: "List an repo's actions secrets",
  params: v.object(repoParams),
  query: listQuery,
  responses: { 200: { description: "SecretList", schema: v.array(api.Secret) }, ...forbidden, ...notFound },
  handler: (c, { query, repo }) => listSecrets(c, query, actionScope.repo(repo.repo)),
});

export const updateRepoSecret = route({
  ...common,
  method: "put",
  path: "/repos/{owner}/{repo}/actions/secrets/{secretname}",
  operationId: "updateRepoSecret",
  summary: "Create or Update a secret value in a repository",
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
  handler: (c, { params, body, repo }) =>
    putSecret(c, actionScope.repo(repo.repo), params.secretname, body.data),
});

export const deleteRepoSecret = route({
  ...common,
  method: "delete",
  path: "/repos/{owner}/{repo}/actions/secrets/{secretname}",
  operationId: "deleteRepoSecret",
  summary: "Delete a secret in a repository",
  params: secretParams,
  responses: { ...empty, ...badRequest, ...forbidden, ...notFound },
  handler: (c, { params, repo }) => deleteSecret(c, actionScope.repo(repo.repo), params.secretname),
});

export const getRepoVariablesList = route({
  ...common,
  method: "get",
  path: "/repos/{owner}/{repo}/actions/variables",
  operationId: "getRepoVariablesList",
  summary: "Get repo-level variables list",
  params: v.object(repoParams),
  query: listQuery,
  responses: {
    200: { description: "VariableList", schema: v.array(api.ActionVariable) },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { query, repo }) => listVariables(c, query, actionScope.repo(repo.repo)),
});

export const getRepoVariable = route({
  ...common,
  method: "get",
  path: "/repos/{owner}/{repo}/actions/variables/{variablename}",
  operationId: "getRepoVariable",
  summary: "Get a repo-level variable",
  params: variableParams,
  responses: {
    200: { description: "ActionVariable", schema: api.ActionVariable },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { params, repo }) => getVariable(c, actionScope.repo(repo.repo), params.variablename),
});

export const createRepoVariable = route({
  ...common,
  method: "post",
  path: "/repos/{owner}/{repo}/actions/variables/{variablename}",
  operationId: "createRepoVariable",
  summary: "Create a repo-level variable",
  params: variableParams,
  body: api.CreateVariableOption,
  responses: {
    204: { description: "response when creating a repo-level variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
    409: { description: "a variable of that name exists", schema: api.APIError },
    ...validationError,
  },
  handler: (c, { params, body, repo }) =>
    createVariable(c, actionScope.repo(repo.repo), params.variablename, body.value),
});

export const updateRepoVariable = route({
  ...common,
  method: "put",
  path: "/repos/{owner}/{repo}/actions/variables/{variablename}",
  operationId: "updateRepoVariable",
  summary: "Update a repo-level variable",
  params: variableParams,
  body: api.UpdateVariableOption,
  responses: {
    204: { description: "response when updating a repo-level variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
    409: { description: "the new name is another variable's", schema: api.APIError },
    ...validationError,
  },
  handler: (c, { params, body, repo }) =>
    updateVariable(c, actionScope.repo(repo.repo), params.variablename, body),
});

export const deleteRepoVariable = route({
  ...common,
  method: "delete",
  path: "/repos/{owner}/{repo}/actions/variables/{variablename}",
  operationId: "deleteRepoVariable",
  summary: "Delete a repo-level variable",
  params: variableParams,
  responses: {
    204: { description: "response when deleting a variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
  },
  handler: (c, { params, repo }) => deleteVariable(c, actionScope.repo(repo.repo), params.variablename),
});

export const repoActionSettingsRoutes = [
  repoListActionsSecrets,
  updateRepoSecret,
  deleteRepoSecret,
  getRepoVariablesList,
  getRepoVariable,
  createRepoVariable,
  updateRepoVariable,
  deleteRepoVariable,
];
