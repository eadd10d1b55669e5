import { api, inputTime } from "@kiln/domain";
import { toApiMilestone } from "@kiln/service";
import * as v from "valibot";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/milestone.go: reading needs access to the repository; writing
 * needs write access to issues or pull requests. `{id}` is an id or, failing that, a name.
 */

const idParams = v.object({
  ...repoParams,
  id: qs.string("the milestone to get, identified by ID and if not available by name"),
});
const writer = { write: ["repo.issues", "repo.pulls"] } as const;
/** A due date given (Go's zero time is none, as `null` and absence are). */
const dueOn = (value: string | undefined): Date | undefined =>
  value === undefined ? undefined : inputTime(value);

export const issueGetMilestonesList = route({
  method: "get",
  path: "/repos/{owner}/{repo}/milestones",
  operationId: "issueGetMilestonesList",
  tags: ["issue"],
  summary: "Get all of a repository's opened milestones",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: v.object(repoParams),
  query: v.object({
    ...pageQuery,
    state: v.optional(
      qs.string('Milestone state, Recognized values are open, closed and all. Defaults to "open"'),
    ),
    name: v.optional(qs.string("filter by milestone name")),
  }),
  responses: { 200: { description: "MilestoneList", schema: v.array(api.Milestone) }, ...notFound },
  async handler(c, { query, repo: access }) {
    // As Forgejo: `open` and `closed` filter, anything else (also nothing) lists all.
    const state = query.state === "open" || query.state === "closed" ? query.state : "all";
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").milestones.list(access.repo, { state, name: query.name }, page),
      toApiMilestone,
    );
  },
});

export const issueCreateMilestone = route({
  method: "post",
  path: "/repos/{owner}/{repo}/milestones",
  operationId: "issueCreateMilestone",
  tags: ["issue"],
  summary: "Create a milestone",
  access: "signed-in",
  repo: writer,
  scopes: ["issue"],
  params: v.object(repoParams),
  body: api.CreateMilestoneOption,
  bodyRequired: false,
  responses: {
    201: { description: "Milestone", schema: api.Milestone },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { body, repo: access }) {
    const milestone = await c.get("services").milestones.create(access.repo, {
      title: body.title,
      description: body.description,
      dueOn: dueOn(body.due_on),
      state: body.state,
    });
    return c.json(toApiMilestone(milestone), 201);
  },
});

export const issueGetMilestone = route({
  method: "get",
  path: "/repos/{owner}/{repo}/milestones/{id}",
  operationId: "issueGetMilestone",
  tags: ["issue"],
  summary: "Get a milestone",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: idParams,
  responses: { 200: { description: "Milestone", schema: api.Milestone }, ...notFound },
  async handler(c, { params, repo: access }) {
    return c.json(toApiMilestone(await c.get("services").milestones.get(access.repo, params.id)));
  },
});

export const issueEditMilestone = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/milestones/{id}",
  operationId: "issueEditMilestone",
  tags: ["issue"],
  summary: "Update a milestone",
  access: "signed-in",
  repo: writer,
  scopes: ["issue"],
  params: idParams,
  body: api.EditMilestoneOption,
  bodyRequired: false,
  responses: {
    200: { description: "Milestone", schema: api.Milestone },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const milestone = await c.get("services").milestones.edit(access.repo, params.id, {
      title: body.title,
      description: body.description,
      dueOn: dueOn(body.due_on),
      state: body.state,
    });
    return c.json(toApiMilestone(milestone));
  },
});

export const issueDeleteMilestone = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/milestones/{id}",
  operationId: "issueDeleteMilestone",
  tags: ["issue"],
  summary: "Delete a milestone",
  access: "signed-in",
  repo: writer,
  scopes: ["issue"],
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").milestones.delete(access.repo, params.id);
    return c.body(null, 204);
  },
});

export const milestoneRoutes = [
  issueGetMilestonesList,
  issueCreateMilestone,
  issueGetMilestone,
  issueEditMilestone,
  issueDeleteMilestone,
];
