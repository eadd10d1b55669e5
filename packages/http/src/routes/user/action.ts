import { api } from "@kiln/domain";
import { actionScope, type Principal } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { toApiRunJob } from "../../convert/action.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import {
  badRequest,
  createVariable,
  deleteSecret,
  deleteVariable,
  getVariable,
  labelsOf,
  labelsQuery,
  listQuery,
  listVariables,
  putSecret,
  registrationToken,
  secretNameParam,
  updateVariable,
  variableNameParam,
} from "../shared/action.js";

/**
 * The signed-in user's Actions secrets, variables, runner token and runner jobs (Forgejo's
 * routers/api/v1/user/action.go and runners.go).
 */

/** The signed-in user (the route is `signed-in`). */
const me = (principal: Principal | null) => requirePrincipal(principal).user;

const secretParams = v.object(secretNameParam);
const variableParams = v.object(variableNameParam);
const common = { tags: ["user"], access: "signed-in", scopes: ["user"] } as const;

export const updateUserSecret = route({
  ...common,
  method: "put",
  path: "/user/actions/secrets/{secretname}",
  operationId: "updateUserSecret",
  summary: "Create or Update a secret value in a user scope",
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
  handler: (c, { params, body, principal }) =>
    putSecret(c, actionScope.owner(me(principal)), params.secretname, body.data),
});

export const deleteUserSecret = route({
  ...common,
  method: "delete",
  path: "/user/actions/secrets/{secretname}",
  operationId: "deleteUserSecret",
  summary: "Delete a secret in a user scope",
  params: secretParams,
  responses: { ...empty, ...badRequest, ...forbidden, ...notFound },
  handler: (c, { params, principal }) => deleteSecret(c, actionScope.owner(me(principal)), params.secretname),
});

export const getUserVariablesList = route({
  ...common,
  method: "get",
  path: "/user/actions/variables",
  operationId: "getUserVariablesList",
  summary: "Get the user-level list of variables which is created by current doer",
  query: listQuery,
  responses: {
    200: { description: "VariableList", schema: v.array(api.ActionVariable) },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { query, principal }) => listVariables(c, query, actionScope.owner(me(principal))),
});

export const getUserVariable = route({
  ...common,
  method: "get",
  path: "/user/actions/variables/{variablename}",
  operationId: "getUserVariable",
  summary: "Get a user-level variable",
  params: variableParams,
  responses: {
    200: { description: "ActionVariable", schema: api.ActionVariable },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { params, principal }) =>
    getVariable(c, actionScope.owner(me(principal)), params.variablename),
});

export const createUserVariable = route({
  ...common,
  method: "post",
  path: "/user/actions/variables/{variablename}",
  operationId: "createUserVariable",
  summary: "Create a user-level variable",
  params: variableParams,
  body: api.CreateVariableOption,
  responses: {
    204: { description: "response when creating a user-level variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
    409: { description: "a variable of that name exists", schema: api.APIError },
    ...validationError,
  },
  handler: (c, { params, body, principal }) =>
    createVariable(c, actionScope.owner(me(principal)), params.variablename, body.value),
});

export const updateUserVariable = route({
  ...common,
  method: "put",
  path: "/user/actions/variables/{variablename}",
  operationId: "updateUserVariable",
  summary: "Update a user-level variable",
  params: variableParams,
  body: api.UpdateVariableOption,
  responses: {
    204: { description: "response when updating a user-level variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
    409: { description: "the new name is another variable's", schema: api.APIError },
    ...validationError,
  },
  handler: (c, { params, body, principal }) =>
    updateVariable(c, actionScope.owner(me(principal)), params.variablename, body),
});

export const deleteUserVariable = route({
  ...common,
  method: "delete",
  path: "/user/actions/variables/{variablename}",
  operationId: "deleteUserVariable",
  summary: "Delete a user-level variable",
  params: variableParams,
  responses: {
    204: { description: "response when deleting a variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
  },
  handler: (c, { params, principal }) =>
    deleteVariable(c, actionScope.owner(me(principal)), params.variablename),
});

export const userGetRunnerRegistrationToken = route({
  ...common,
  method: "get",
  path: "/user/actions/runners/registration-token",
  operationId: "userGetRunnerRegistrationToken",
  summary: "Get a user scope's actions runner registration token",
  responses: {
    200: { description: "RegistrationToken", schema: api.RegistrationToken },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { principal }) => registrationToken(c, { ownerId: me(principal).id }),
});

export const userSearchRunJobs = route({
  ...common,
  method: "get",
  path: "/user/actions/runners/jobs",
  operationId: "userSearchRunJobs",
  summary: "Search for user's action jobs according filter conditions",
  query: labelsQuery,
  responses: {
    200: { description: "RunJobList", schema: v.array(api.ActionRunJob) },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { query, principal }) {
    const jobs = await c
      .get("services")
      .actionRuns.searchJobs(c.get("actor"), { ownerId: me(principal).id }, labelsOf(query));
    return c.json(jobs.map(toApiRunJob));
  },
});

export const userActionRoutes = [
  userGetRunnerRegistrationToken,
  userSearchRunJobs,
  updateUserSecret,
  deleteUserSecret,
  getUserVariablesList,
  getUserVariable,
  createUserVariable,
  updateUserVariable,
  deleteUserVariable,
];
