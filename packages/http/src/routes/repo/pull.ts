import { api, inputTime, type Repository } from "@kiln/domain";
import { accountSight, issueSort, type PullIssue, type RepoAccess, toApiPullRequest } from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, repoArchived, validationError } from "../responses.js";
import { apiRepo, apiRepos, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/pull.go: listing, opening, reading and editing pull requests. */

/** Forgejo's pulls group: hidden (404) without read access to pull requests, 403 without read access to the code. */
export const PULLS = { read: "repo.code", hiddenWithout: "repo.pulls" } as const;

export const pullIndexParams = v.object({
  ...repoParams,
  index: qs.int("index of the pull request", { min: 1 }),
});

/** Pull requests in API shape for the caller, with both sides' repositories converted once. */
export async function apiPulls(c: AppContext, access: RepoAccess, list: readonly PullIssue[]) {
  const views = await c.get("services").pulls.views(access, list);
  const repos = new Map([[access.repo.id, await apiRepo(c, access.repo, access)]]);
  // A fork the caller may not see is left out (the head shows no repository), as Kiln hides every
  // private thing; the pull request itself lives in the base and stays readable.
  const heads = new Map<number, Repository>();
  for (const view of views) {
    const head = view.head.repo;
    if (head && !repos.has(head.id)) heads.set(head.id, head);
  }
  const known = await c.get("services").access.visibleRepos(c.get("actor"), [...heads.values()]);
  const visible = [...heads.values()].filter((head) => known.has(head.id));
  for (const json of await apiRepos(c, visible)) repos.set(json.id, json);
  const viewer = c.get("actor")?.user ?? null;
  return views.map((view) => toApiPullRequest(view, repos, accountSight(viewer), c.get("settings")));
}

/** One pull request in API shape for the caller. */
export async function onePull(c: AppContext, access: RepoAccess, item: PullIssue) {
  const [json] = await apiPulls(c, access, [item]);
  return json;
}

export const repoListPullRequests = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls",
  operationId: "repoListPullRequests",
  tags: ["repository"],
  summary: "List a repo's pull requests",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object({
    ...pageQuery,
    state: v.optional(
      qs.string("State of pull request: open or closed (all when absent, as Forgejo answers)"),
    ),
    sort: v.optional(qs.string("Type of sort")),
    milestone: v.optional(qs.int("ID of the milestone")),
    labels: v.optional(qs.intList("Label IDs")),
    poster: v.optional(qs.string("Filter by pull request author")),
  }),
  responses: {
    200: { description: "PullRequestList", schema: v.array(api.PullRequest) },
    ...notFound,
    ...validationError,
  },
  async handler(c, { query, repo: access }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c
      .get("services")
      .pulls.list(
        access,
        { state: query.state, labelIds: query.labels, milestoneId: query.milestone, poster: query.poster },
        issueSort(query.sort),
        page,
      );
    setPagingHeaders(c, page, list.total);
    return c.json(await apiPulls(c, access, list.items));
  },
});

export const repoCreatePullRequest = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls",
  operationId: "repoCreatePullRequest",
  tags: ["repository"],
  summary: "Create a pull request",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  notArchived: true,
  scopes: ["repository"],
  params: v.object(repoParams),
  body: api.CreatePullRequestOption,
  responses: {
    201: { description: "PullRequest", schema: api.PullRequest },
    ...forbidden,
    ...notFound,
    409: { description: "APIError", schema: api.APIError },
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { body, repo: access }) {
    const created = await c.get("services").pulls.create(access, {
      head: body.head,
      base: body.base,
      title: body.title,
      body: body.body ?? undefined,
      assignee: body.assignee ?? undefined,
      assignees: body.assignees ?? undefined,
      milestoneId: body.milestone ?? undefined,
      labelIds: body.labels ?? undefined,
      dueDate: body.due_date === undefined ? undefined : inputTime(body.due_date),
    });
    return c.json(await onePull(c, access, created), 201);
  },
});

export const repoGetPullRequest = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}",
  operationId: "repoGetPullRequest",
  tags: ["repository"],
  summary: "Get a pull request",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: pullIndexParams,
  responses: { 200: { description: "PullRequest", schema: api.PullRequest }, ...notFound },
  async handler(c, { params, repo: access }) {
    return c.json(await onePull(c, access, await c.get("services").pulls.get(access, params.index)));
  },
});

export const repoEditPullRequest = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/pulls/{index}",
  operationId: "repoEditPullRequest",
  tags: ["repository"],
  summary:
    "Update a pull request. If using deadline only the date will be taken into account, and time of day ignored.",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  scopes: ["repository"],
  params: pullIndexParams,
  body: api.EditPullRequestOption,
  bodyRequired: false,
  responses: {
    201: { description: "PullRequest", schema: api.PullRequest },
    ...forbidden,
    ...notFound,
    409: { description: "APIError", schema: api.APIError },
    412: { description: "APIError", schema: api.APIError },
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const edited = await c.get("services").pullEdits.edit(access, params.index, {
      title: body?.title ?? undefined,
      body: body?.body ?? undefined,
      base: body?.base ?? undefined,
      assignee: body?.assignee ?? undefined,
      assignees: body?.assignees ?? undefined,
      milestoneId: body?.milestone ?? undefined,
      labelIds: body?.labels ?? undefined,
      state: body?.state ?? undefined,
      dueDate: body?.due_date ?? undefined,
      unsetDueDate: body?.unset_due_date ?? undefined,
      allowMaintainerEdit: body?.allow_maintainer_edit ?? undefined,
    });
    // Forgejo answers an edit with 201.
    return c.json(await onePull(c, access, edited), 201);
  },
});

export const repoListPinnedPullRequests = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/pinned",
  operationId: "repoListPinnedPullRequests",
  tags: ["repository"],
  summary: "List a repo's pinned pull requests",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { 200: { description: "PullRequestList", schema: v.array(api.PullRequest) }, ...notFound },
  async handler(c, { repo: access }) {
    const services = c.get("services");
    const pinned = await services.issueStates.pinned(access, true);
    const list: PullIssue[] = [];
    for (const issue of pinned) list.push(await services.pulls.get(access, issue.index));
    return c.json(await apiPulls(c, access, list));
  },
});

export const repoGetPullRequestByBaseHead = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{base}/{head*}",
  operationId: "repoGetPullRequestByBaseHead",
  tags: ["repository"],
  summary: "Get a pull request by base and head",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: v.object({
    ...repoParams,
    base: qs.string("base of the pull request to get"),
    head: qs.string("head of the pull request to get"),
  }),
  responses: { 200: { description: "PullRequest", schema: api.PullRequest }, ...notFound },
  async handler(c, { params, repo: access }) {
    const found = await c.get("services").pulls.byBaseHead(access, params.base, params.head);
    return c.json(await onePull(c, access, found));
  },
});

/** The pull request routes before the ones with a rest-of-path head (`/pulls/{base}/{head*}` must come last). */
export const pullRoutes = [
  repoListPullRequests,
  repoCreatePullRequest,
  repoListPinnedPullRequests,
  repoGetPullRequest,
  repoEditPullRequest,
];
