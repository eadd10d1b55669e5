import { api, formatTime, type Issue, inputTime, timeOf } from "@kiln/domain";
import { accountSight, groupAssets, issueSort, type RepoAccess, toApiIssue } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, repoArchived, validationError } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/issue.go: one repository's issues. */

const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
/** Answers issues as the API shows them to the caller. */
export async function apiIssues(c: AppContext, list: readonly Issue[], known: RepoAccess["repo"][] = []) {
  const services = c.get("services");
  const settings = c.get("settings");
  const [views, files] = await Promise.all([
    services.issues.views(list, known),
    services.attachments.ofIssues(list.map((issue) => issue.id)),
  ]);
  const viewer = c.get("actor")?.user ?? null;
  const assets = groupAssets(files, (a) => a.issueId, settings);
  return views.map((view) => toApiIssue(view, accountSight(viewer), settings, assets.get(view.issue.id)));
}

export const issueListIssues = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues",
  operationId: "issueListIssues",
  tags: ["issue"],
  summary: "List a repository's issues",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: v.object(repoParams),
  query: v.object({
    ...pageQuery,
    state: v.optional(qs.string("whether issue is open or closed")),
    labels: v.optional(qs.string("comma separated list of labels; issues must carry all of them")),
    q: v.optional(qs.string("search string")),
    type: v.optional(qs.string("filter by type (issues / pulls) if set")),
    milestones: v.optional(qs.string("comma separated list of milestone names or ids")),
    since: v.optional(qs.string("Only show items updated after the given time (RFC 3339)")),
    before: v.optional(qs.string("Only show items updated before the given time (RFC 3339)")),
    created_by: v.optional(qs.string("Only show items which were created by the given user")),
    assigned_by: v.optional(qs.string("Only show items for which the given user is assigned")),
    mentioned_by: v.optional(qs.string("Only show items in which the given user was mentioned")),
    sort: v.optional(qs.string("Type of sort")),
  }),
  responses: {
    200: { description: "IssueList", schema: v.array(api.Issue) },
    ...notFound,
    ...validationError,
  },
  async handler(c, { query, repo: access }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").issues.list(
      access,
      {
        state: query.state,
        labels: query.labels,
        milestones: query.milestones,
        q: query.q,
        type: query.type,
        since: query.since,
        before: query.before,
        createdBy: query.created_by,
        assignedBy: query.assigned_by,
        mentionedBy: query.mentioned_by,
      },
      issueSort(query.sort),
      page,
    );
    setPagingHeaders(c, page, list.total);
    return c.json(await apiIssues(c, list.items, [access.repo]));
  },
});

export const issueCreateIssue = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues",
  operationId: "issueCreateIssue",
  tags: ["issue"],
  summary:
    "Create an issue. If using deadline only the date will be taken into account, and time of day ignored.",
  access: "signed-in",
  repo: { read: "repo.issues" },
  notArchived: true,
  readersMayWrite: true,
  scopes: ["issue"],
  params: v.object(repoParams),
  body: api.CreateIssueOption,
  responses: {
    201: { description: "Issue", schema: api.Issue },
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { body, repo: access }) {
    const issue = await c.get("services").issues.create(access, {
      title: body.title,
      body: body.body,
      ref: body.ref,
      assignee: body.assignee,
      assignees: body.assignees,
      dueDate: body.due_date === undefined ? null : (inputTime(body.due_date) ?? null),
      milestoneId: body.milestone,
      labelIds: body.labels,
      closed: body.closed,
    });
    const [json] = await apiIssues(c, [issue], [access.repo]);
    return c.json(json, 201);
  },
});

export const issueGetIssue = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}",
  operationId: "issueGetIssue",
  tags: ["issue"],
  summary: "Get an issue",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  responses: { 200: { description: "Issue", schema: api.Issue }, ...notFound },
  async handler(c, { params, repo: access }) {
    const issue = await c.get("services").issues.get(access, params.index);
    const [json] = await apiIssues(c, [issue], [access.repo]);
    return c.json(json);
  },
});

export const issueEditIssue = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/issues/{index}",
  operationId: "issueEditIssue",
  tags: ["issue"],
  summary:
    "Edit an issue. If using deadline only the date will be taken into account, and time of day ignored.",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  body: api.EditIssueOption,
  bodyRequired: false,
  responses: {
    201: { description: "Issue", schema: api.Issue },
    ...forbidden,
    ...notFound,
    412: { description: "APIError", schema: api.APIError },
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const issue = await c.get("services").issueEdits.edit(access, params.index, {
      title: body.title,
      body: body.body,
      ref: body.ref,
      assignee: body.assignee,
      assignees: body.assignees,
      milestoneId: body.milestone,
      state: body.state,
      dueDate: body.due_date,
      unsetDueDate: body.unset_due_date,
      updatedAt: body.updated_at === undefined ? undefined : timeOf(body.updated_at),
    });
    const [json] = await apiIssues(c, [issue], [access.repo]);
    // Forgejo answers an edit with 201.
    return c.json(json, 201);
  },
});

export const issueDelete = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}",
  operationId: "issueDelete",
  tags: ["issue"],
  summary: "Delete an issue",
  access: "signed-in",
  repo: "admin",
  scopes: ["issue"],
  params: indexParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").issues.delete(access, params.index);
    return c.body(null, 204);
  },
});

export const issueSearchIssues = route({
  method: "get",
  path: "/repos/issues/search",
  operationId: "issueSearchIssues",
  tags: ["issue"],
  summary: "Search for issues across the repositories that the user has access to",
  access: "public",
  scopes: ["issue"],
  query: v.object({
    ...pageQuery,
    state: v.optional(qs.string("whether issue is open or closed")),
    labels: v.optional(qs.string("comma separated list of labels; issues carrying any of them")),
    milestones: v.optional(qs.string("comma separated list of milestone names")),
    q: v.optional(qs.string("search string")),
    priority_repo_id: v.optional(qs.int("repository to prioritize in the results")),
    type: v.optional(qs.string("filter by type (issues / pulls) if set")),
    since: v.optional(qs.string("Only show notifications updated after the given time (RFC 3339)")),
    before: v.optional(qs.string("Only show notifications updated before the given time (RFC 3339)")),
    assigned: v.optional(qs.bool("filter (issues / pulls) assigned to you")),
    created: v.optional(qs.bool("filter (issues / pulls) created by you")),
    mentioned: v.optional(qs.bool("filter (issues / pulls) mentioning you")),
    review_requested: v.optional(qs.bool("filter pulls requesting your review")),
    reviewed: v.optional(qs.bool("filter pulls reviewed by you")),
    owner: v.optional(qs.string("filter by owner")),
    team: v.optional(qs.string("filter by team (requires organization owner parameter to be provided)")),
  }),
  responses: {
    200: { description: "IssueList", schema: v.array(api.Issue) },
    400: { description: "APIError", schema: api.APIError },
    ...validationError,
  },
  async handler(c, { query }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").issueSearch.search(
      c.get("actor"),
      {
        q: query.q,
        state: query.state,
        labels: query.labels,
        milestones: query.milestones,
        type: query.type,
        since: query.since,
        before: query.before,
        assigned: query.assigned,
        created: query.created,
        mentioned: query.mentioned,
        owner: query.owner,
        team: query.team,
      },
      page,
    );
    setPagingHeaders(c, page, list.total);
    return c.json(await apiIssues(c, list.items));
  },
});

export const issueEditIssueDeadline = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/deadline",
  operationId: "issueEditIssueDeadline",
  tags: ["issue"],
  summary:
    "Set an issue deadline. If set to null, the deadline is deleted. If using deadline only the date will be taken into account, and time of day ignored.",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  body: api.EditDeadlineOption,
  bodyRequired: false,
  responses: {
    201: { description: "IssueDeadline", schema: api.IssueDeadline },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const deadline = await c.get("services").issueEdits.setDeadline(access, params.index, body.due_date);
    // Forgejo answers a removed deadline with Go's zero time, not null.
    return c.json({ due_date: deadline ? formatTime(deadline) : "0001-01-01T00:00:00Z" }, 201);
  },
});

export const issueRoutes = [
  issueListIssues,
  issueCreateIssue,
  issueGetIssue,
  issueEditIssue,
  issueDelete,
  issueEditIssueDeadline,
];
