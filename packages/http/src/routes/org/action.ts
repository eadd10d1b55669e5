import { api } from "@kiln/domain";
import { actionScope } from "@kiln/service";
import * as v from "valibot";
import { toApiRunJob } from "../../convert/action.js";
import { qs } from "../../query.js";
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
  listSecrets,
  listVariables,
  putSecret,
  registrationToken,
  secretNameParam,
  updateVariable,
  variableNameParam,
} from "../shared/action.js";

/**
 * An organization's Actions secrets and variables (Forgejo's routers/api/v1/org/action.go), for
 * its owners (reqOrgOwnership).
 */

const orgParams = { org: qs.string("name of the organization") };

const secretParams = v.object({ ...orgParams, ...secretNameParam });
const variableParams = v.object({ ...orgParams, ...variableNameParam });
const common = {
  tags: ["organization"],
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
} as const;

export const orgListActionsSecrets = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/actions/secrets",
  operationId: "orgListActionsSecrets",
  summary: "List an organization's actions secrets",
  params: v.object(orgParams),
  query: listQuery,
  responses: { 200: { description: "SecretList", schema: v.array(api.Secret) }, ...forbidden, ...notFound },
  handler: (c, { query, org }) => listSecrets(c, query, actionScope.owner(org.org)),
});

export const updateOrgSecret = route({
  ...common,
  method: "put",
  path: "/orgs/{org}/actions/secrets/{secretname}",
  operationId: "updateOrgSecret",
  summary: "Create or Update a secret value in an organization",
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
  handler: (c, { params, body, org }) =>
    putSecret(c, actionScope.owner(org.org), params.secretname, body.data),
});

export const deleteOrgSecret = route({
  ...common,
  method: "delete",
  path: "/orgs/{org}/actions/secrets/{secretname}",
  operationId: "deleteOrgSecret",
  summary: "Delete a secret in an organization",
  params: secretParams,
  responses: { ...empty, ...badRequest, ...forbidden, ...notFound },
  handler: (c, { params, org }) => deleteSecret(c, actionScope.owner(org.org), params.secretname),
});

export const getOrgVariablesList = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/actions/variables",
  operationId: "getOrgVariablesList",
  summary: "Get an org-level variables list",
  params: v.object(orgParams),
  query: listQuery,
  responses: {
    200: { description: "VariableList", schema: v.array(api.ActionVariable) },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { query, org }) => listVariables(c, query, actionScope.owner(org.org)),
});

export const getOrgVariable = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/actions/variables/{variablename}",
  operationId: "getOrgVariable",
  summary: "Get a org-level variable",
  params: variableParams,
  responses: {
    200: { description: "ActionVariable", schema: api.ActionVariable },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { params, org }) => getVariable(c, actionScope.owner(org.org), params.variablename),
});

export const createOrgVariable = route({
  ...common,
  method: "post",
  path: "/orgs/{org}/actions/variables/{variablename}",
  operationId: "createOrgVariable",
  summary: "Create a org-level variable",
  params: variableParams,
  body: api.CreateVariableOption,
  responses: {
    204: { description: "response when creating a org-level variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
    409: { description: "a variable of that name exists", schema: api.APIError },
    ...validationError,
  },
  handler: (c, { params, body, org }) =>
    createVariable(c, actionScope.owner(org.org), params.variablename, body.value),
});

export const updateOrgVariable = route({
  ...common,
  method: "put",
  path: "/orgs/{org}/actions/variables/{variablename}",
  operationId: "updateOrgVariable",
  summary: "Update a org-level variable",
  params: variableParams,
  body: api.UpdateVariableOption,
  responses: {
    204: { description: "response when updating a org-level variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
    409: { description: "the new name is another variable's", schema: api.APIError },
    ...validationError,
  },
  handler: (c, { params, body, org }) =>
    updateVariable(c, actionScope.owner(org.org), params.variablename, body),
});

export const deleteOrgVariable = route({
  ...common,
  method: "delete",
  path: "/orgs/{org}/actions/variables/{variablename}",
  operationId: "deleteOrgVariable",
  summary: "Delete a org-level variable",
  params: variableParams,
  responses: {
    204: { description: "response when deleting a variable", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
  },
  handler: (c, { params, org }) => deleteVariable(c, actionScope.owner(org.org), params.variablename),
});

export const orgGetRunnerRegistrationToken = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/actions/runners/registration-token",
  operationId: "orgGetRunnerRegistrationToken",
  summary: "Get an organization's actions runner registration token",
  params: v.object(orgParams),
  responses: {
    200: { description: "RegistrationToken", schema: api.RegistrationToken },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { org }) => registrationToken(c, { ownerId: org.org.id }),
});

export const orgSearchRunJobs = route({
  ...common,
  method: "get",
  path: "/orgs/{org}/actions/runners/jobs",
  operationId: "orgSearchRunJobs",
  summary: "Search for organization's action jobs according filter conditions",
  params: v.object(orgParams),
  query: labelsQuery,
  responses: {
    200: { description: "RunJobList", schema: v.array(api.ActionRunJob) },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { query, org }) {
    const jobs = await c
      .get("services")
      .actionRuns.searchJobs(c.get("actor"), { ownerId: org.org.id }, labelsOf(query));
    return c.json(jobs.map(toApiRunJob));
  },
});

export const orgActionRoutes = [
  orgGetRunnerRegistrationToken,
  orgSearchRunJobs,
  orgListActionsSecrets,
  updateOrgSecret,
  deleteOrgSecret,
  getOrgVariablesList,
  getOrgVariable,
  createOrgVariable,
  updateOrgVariable,
  deleteOrgVariable,
];
