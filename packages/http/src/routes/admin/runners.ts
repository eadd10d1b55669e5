import { api } from "@kiln/domain";
import { toApiRunJob } from "@kiln/service";
import * as v from "valibot";
import { route } from "../../route.js";
import { forbidden } from "../responses.js";
import { labelsOf, labelsQuery, registrationToken } from "../shared/action.js";

/** Forgejo's routers/api/v1/admin/runners.go: the instance's runner token and job search, for site admins. */

export const adminGetRunnerRegistrationToken = route({
  method: "get",
  path: "/admin/runners/registration-token",
  operationId: "adminGetRunnerRegistrationToken",
  tags: ["admin"],
  summary: "Get an global actions runner registration token",
  access: "site-admin",
  scopes: ["admin"],
  responses: { 200: { description: "RegistrationToken", schema: api.RegistrationToken }, ...forbidden },
  handler: (c) => registrationToken(c, { global: true }),
});

export const adminSearchRunJobs = route({
  method: "get",
  path: "/admin/runners/jobs",
  operationId: "adminSearchRunJobs",
  tags: ["admin"],
  summary: "Search action jobs according filter conditions",
  access: "site-admin",
  scopes: ["admin"],
  query: labelsQuery,
  responses: { 200: { description: "RunJobList", schema: v.array(api.ActionRunJob) }, ...forbidden },
  async handler(c, { query }) {
    const jobs = await c
      .get("services")
      .actionRuns.searchJobs(c.get("actor"), { all: true }, labelsOf(query));
    return c.json(jobs.map(toApiRunJob));
  },
});

export const adminRunnerRoutes = [adminGetRunnerRegistrationToken, adminSearchRunJobs];
