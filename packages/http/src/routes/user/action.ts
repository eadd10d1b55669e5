import { api } from "@kiln/domain";
import { actionScope, type Principal, toApiRunJob } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { route } from "../../route.js";
import { forbidden, notFound } from "../responses.js";
import { labelsOf, labelsQuery, registrationToken } from "../shared/action.js";
import { actionSettingRoutes } from "../shared/action-setting-routes.js";

/**
 * The signed-in user's Actions secrets, variables, runner token and runner jobs (Forgejo's
 * routers/api/v1/user/action.go and runners.go).
 */

/** The signed-in user (the route is `signed-in`). */
const me = (principal: Principal | null) => requirePrincipal(principal).user;

const common = { tags: ["user"], access: "signed-in", scopes: ["user"] } as const;

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
  ...actionSettingRoutes({
    ...common,
    path: "/user/actions",
    params: {},
    level: "user",
    scope: ({ principal }) => actionScope.owner(me(principal)),
    names: {
      putSecret: ["updateUserSecret", "Create or Update a secret value in a user scope"],
      deleteSecret: ["deleteUserSecret", "Delete a secret in a user scope"],
      listVariables: [
        "getUserVariablesList",
        "Get the user-level list of variables which is created by current doer",
      ],
      getVariable: ["getUserVariable", "Get a user-level variable"],
      createVariable: ["createUserVariable", "Create a user-level variable"],
      updateVariable: ["updateUserVariable", "Update a user-level variable"],
      deleteVariable: ["deleteUserVariable", "Delete a user-level variable"],
    },
  }),
];
