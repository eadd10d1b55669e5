import { api } from "@kiln/domain";
import { actionScope, toApiRunJob } from "@kiln/service";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound } from "../responses.js";
import { labelsOf, labelsQuery, registrationToken } from "../shared/action.js";
import { actionSettingRoutes } from "../shared/action-setting-routes.js";

/**
 * An organization's Actions secrets and variables (Forgejo's routers/api/v1/org/action.go), for
 * its owners (reqOrgOwnership).
 */

const orgParams = { org: qs.string("name of the organization") };
const common = {
  tags: ["organization"],
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
} as const;

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
  ...actionSettingRoutes({
    ...common,
    path: "/orgs/{org}/actions",
    params: orgParams,
    level: "org",
    scope: ({ org }) => actionScope.owner(org!.org),
    names: {
      listSecrets: ["orgListActionsSecrets", "List an organization's actions secrets"],
      putSecret: ["updateOrgSecret", "Create or Update a secret value in an organization"],
      deleteSecret: ["deleteOrgSecret", "Delete a secret in an organization"],
      listVariables: ["getOrgVariablesList", "Get an org-level variables list"],
      getVariable: ["getOrgVariable", "Get a org-level variable"],
      createVariable: ["createOrgVariable", "Create a org-level variable"],
      updateVariable: ["updateOrgVariable", "Update a org-level variable"],
      deleteVariable: ["deleteOrgVariable", "Delete a org-level variable"],
    },
  }),
];
