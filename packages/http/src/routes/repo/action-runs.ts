import { api, BadRequestError } from "@kiln/domain";
import { ACTION_STATUSES, accountSight, toApiRun, toApiRunJob, toApiTask } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { pageRequest } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, repoArchived, validationError } from "../responses.js";
import { badRequest, labelsOf, labelsQuery, registrationToken } from "../shared/action.js";
import { repoParams } from "./context.js";

/**
 * A repository's runner token, runner jobs, runs, tasks and workflow dispatch (Forgejo's
 * routers/api/v1/repo/action.go). Runs and tasks are for readers of the repository's Actions unit;
 * the token and the job search for its owner (reqOwner); a dispatch for its Actions writers.
 */

/** A repeated (or comma-separated) string parameter, at most 20 values. */
const stringList = (description: string) =>
  v.optional(
    v.pipe(
      v.union([v.string(), v.array(v.string())]),
      v.transform((given) =>
        (Array.isArray(given) ? given : [given]).flatMap((s) => s.split(",")).filter(Boolean),
      ),
      v.maxLength(20, "at most 20 values"),
      v.check((items) => items.every((s) => s.length <= 64), "values are at most 64 characters"),
      v.metadata({
        swagger: { type: "array", items: { type: "string" }, collectionFormat: "multi" },
        description,
      }),
    ),
  );

/** Forgejo's StatusFromString for each given status: 400 `unknown status: x` otherwise. */
function statusesOf(given: readonly string[] | undefined): string[] {
  for (const s of given ?? [])
    if (!(ACTION_STATUSES as readonly string[]).includes(s))
      throw new BadRequestError(`unknown status: ${s}`);
  return [...(given ?? [])];
}

export const repoGetRunnerRegistrationToken = route({
  method: "get",
  path: "/repos/{owner}/{repo}/actions/runners/registration-token",
  operationId: "repoGetRunnerRegistrationToken",
  tags: ["repository"],
  summary: "Get a repository's actions runner registration token",
  access: "signed-in",
  repo: "owner",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "RegistrationToken", schema: api.RegistrationToken },
    ...forbidden,
    ...notFound,
  },
  handler: (c, { repo }) => registrationToken(c, { repoId: repo.repo.id }),
});

export const repoSearchRunJobs = route({
  method: "get",
  path: "/repos/{owner}/{repo}/actions/runners/jobs",
  operationId: "repoSearchRunJobs",
  tags: ["repository"],
  summary: "Search for repository's action jobs according filter conditions",
  access: "signed-in",
  repo: "owner",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: labelsQuery,
  responses: {
    200: { description: "RunJobList", schema: v.array(api.ActionRunJob) },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { query, repo }) {
    const jobs = await c
      .get("services")
      .actionRuns.searchJobs(c.get("actor"), { repoId: repo.repo.id }, labelsOf(query));
    return c.json(jobs.map(toApiRunJob));
  },
});

export const listActionTasks = route({
  method: "get",
  path: "/repos/{owner}/{repo}/actions/tasks",
  operationId: "ListActionTasks",
  tags: ["repository"],
  summary: "List a repository's action tasks",
  access: "public",
  repo: { read: "repo.actions" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object({ ...pageQuery, status: stringList("Returns workflow tasks with the status given") }),
  responses: {
    200: { description: "TasksList", schema: api.ActionTaskResponse },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { query, repo }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").actionRuns.listTasks(repo.repo, statusesOf(query.status), page);
    const settings = c.get("settings");
    return c.json({
      total_count: list.total,
      workflow_runs: list.items.map((t) => toApiTask(t, repo.repo, settings)),
    });
  },
});

export const listActionRuns = route({
  method: "get",
  path: "/repos/{owner}/{repo}/actions/runs",
  operationId: "ListActionRuns",
  tags: ["repository"],
  summary: "List a repository's action runs",
  access: "public",
  repo: { read: "repo.actions" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object({
    ...pageQuery,
    event: stringList("Returns workflow run triggered by the specified events"),
    status: stringList("Returns workflow runs with the status given"),
    run_number: v.optional(qs.int("Returns the workflow run associated with the run number", { min: 0 })),
    head_sha: v.optional(v.pipe(qs.string("Only returns workflow runs of this head_sha"), v.maxLength(64))),
  }),
  responses: {
    200: { description: "RepoActionRunList", schema: api.ListRepoActionRunResponse },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { query, repo }) {
    const page = pageRequest(query, c.get("settings").api);
    const filter = {
      ...(query.event ? { events: query.event } : {}),
      statuses: statusesOf(query.status),
      ...(query.run_number ? { runNumber: query.run_number } : {}),
      ...(query.head_sha ? { headSha: query.head_sha } : {}),
    };
    const { page: list, users } = await c.get("services").actionRuns.listRuns(repo.repo, filter, page);
    const settings = c.get("settings");
    return c.json({
      total_count: list.total,
      workflow_runs: list.items.map((run) =>
        toApiRun(run, repo.repo, users, accountSight(repo.viewer), settings),
      ),
    });
  },
});

export const getActionRun = route({
  method: "get",
  path: "/repos/{owner}/{repo}/actions/runs/{run_id}",
  operationId: "ActionRun",
  tags: ["repository"],
  summary: "Get an action run",
  access: "public",
  repo: { read: "repo.actions" },
  scopes: ["repository"],
  params: v.object({ ...repoParams, run_id: qs.int("id of the action run", { min: 1 }) }),
  responses: { 200: { description: "RepoActionRun", schema: api.RepoActionRun }, ...forbidden, ...notFound },
  async handler(c, { params, repo }) {
    const { run, users } = await c.get("services").actionRuns.getRun(repo.repo, params.run_id);
    return c.json(toApiRun(run, repo.repo, users, accountSight(repo.viewer), c.get("settings")));
  },
});

export const dispatchWorkflow = route({
  method: "post",
  path: "/repos/{owner}/{repo}/actions/workflows/{workflowname}/dispatches",
  operationId: "DispatchWorkflow",
  tags: ["repository"],
  summary: "Dispatches a workflow",
  access: "signed-in",
  repo: { write: ["repo.actions"] },
  notArchived: true,
  scopes: ["repository"],
  params: v.object({
    ...repoParams,
    workflowname: v.pipe(qs.string("name of the workflow"), v.maxLength(255)),
  }),
  body: api.DispatchWorkflowOption,
  responses: {
    201: { description: "DispatchWorkflowRun", schema: api.DispatchWorkflowRun },
    204: { description: "APIEmpty", schema: "empty" },
    ...badRequest,
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, body, repo, principal }) {
    const doer = requirePrincipal(principal).user;
    const run = await c
      .get("services")
      .actionRuns.dispatch(repo.repo, doer, params.workflowname, body.ref, body.inputs ?? {});
    if (body.return_run_info)
      return c.json({ id: run.id, run_number: run.runNumber, jobs: [...run.jobs] }, 201);
    return c.body(null, 204);
  },
});

export const repoActionRunRoutes = [
  repoGetRunnerRegistrationToken,
  repoSearchRunJobs,
  listActionTasks,
  listActionRuns,
  getActionRun,
  dispatchWorkflow,
];
