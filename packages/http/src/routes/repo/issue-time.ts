import type { TrackedTimeEntry } from "@kiln/domain";
import { api, inputTime, type Paged, type PageRequest } from "@kiln/domain";
import {
  accountSight,
  parseTime,
  type TrackedTimeView,
  toApiStopWatch,
  toApiTrackedTime,
} from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import type { AppContext } from "../../env.js";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { conflict, empty, forbidden, notFound } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/issue_tracked_time.go and issue_stopwatch.go: time tracked on
 * issues, and the stopwatches that track it. Every operation needs a signed-in caller. The lists
 * of a repository's times resolve the repository first, as Forgejo's repoAssignment runs before
 * its reqToken: an anonymous caller gets 404 for a private repository, 401 for a public one.
 */

const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;
const createdEmpty = { 201: { description: "APIEmpty", schema: "empty" } } as const;
const windowQuery = {
  since: v.optional(
    qs.string("Only show times updated after the given time. This is a timestamp in RFC 3339 format"),
  ),
  before: v.optional(
    qs.string("Only show times updated before the given time. This is a timestamp in RFC 3339 format"),
  ),
};
const windowOf = (query: { since?: string | undefined; before?: string | undefined }) => ({
  since: parseTime(query.since),
  before: parseTime(query.before),
});

/**
 * Answers tracked times, their issues and users loaded in one batch: a page when asked, else all
 * of them (at most UNPAGED_LIMIT), as Forgejo's FindTrackedTimesOptions pages only on request.
 */
async function timesJson(
  c: AppContext,
  query: { page?: string | undefined; limit?: string | undefined },
  load: (page: PageRequest) => Promise<Paged<TrackedTimeEntry>>,
  paging: typeof optionallyPagedJson = optionallyPagedJson,
) {
  const services = c.get("services");
  const viewer = c.get("actor").user;
  return paging(
    c,
    query,
    async (page) => {
      const list = await load(page);
      return { total: list.total, items: await services.times.views(list.items) };
    },
    (view: TrackedTimeView) => toApiTrackedTime(view, accountSight(viewer), c.get("settings")),
  );
}

export const issueTrackedTimes = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/times",
  operationId: "issueTrackedTimes",
  tags: ["issue"],
  summary: "List an issue's tracked times",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  query: v.object({
    ...pageQuery,
    ...windowQuery,
    user: v.optional(qs.string("optional filter by user (available for issue managers)")),
  }),
  responses: { 200: { description: "TrackedTimeList", schema: v.array(api.TrackedTime) }, ...notFound },
  async handler(c, { params, query, principal, repo: access }) {
    requirePrincipal(principal);
    const filter = { ...windowOf(query), user: query.user };
    return timesJson(c, query, (page) =>
      c.get("services").times.listForIssue(access, params.index, filter, page),
    );
  },
});

export const issueAddTime = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/times",
  operationId: "issueAddTime",
  tags: ["issue"],
  summary: "Add tracked time to an issue",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  body: api.AddTimeOption,
  responses: {
    200: { description: "TrackedTime", schema: api.TrackedTime },
    ...badRequest,
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, body, repo: access }) {
    const services = c.get("services");
    const entry = await services.times.add(access, params.index, {
      seconds: body.time,
      // Go clients send the zero time for "now" (Forgejo: `if !form.Created.IsZero()`).
      created: body.created === undefined ? undefined : inputTime(body.created),
      userName: body.user_name,
    });
    const [view] = await services.times.views([entry]);
    return c.json(
      toApiTrackedTime(view as TrackedTimeView, accountSight(c.get("actor").user), c.get("settings")),
    );
  },
});

export const issueResetTime = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/times",
  operationId: "issueResetTime",
  tags: ["issue"],
  summary: "Reset a tracked time of an issue",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  responses: { ...empty, ...badRequest, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").times.reset(access, params.index);
    return c.body(null, 204);
  },
});

export const issueDeleteTime = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/times/{id}",
  operationId: "issueDeleteTime",
  tags: ["issue"],
  summary: "Delete specific tracked time",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: v.object({
    ...repoParams,
    index: qs.int("index of the issue", { min: 1 }),
    id: qs.int("id of time to delete"),
  }),
  responses: { ...empty, ...badRequest, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").times.delete(access, params.index, params.id);
    return c.body(null, 204);
  },
});

export const repoTrackedTimes = route({
  method: "get",
  path: "/repos/{owner}/{repo}/times",
  operationId: "repoTrackedTimes",
  tags: ["repository"],
  summary: "List a repo's tracked times",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object({
    ...pageQuery,
    ...windowQuery,
    user: v.optional(qs.string("optional filter by user (available for issue managers)")),
  }),
  responses: {
    200: { description: "TrackedTimeList", schema: v.array(api.TrackedTime) },
    ...badRequest,
    ...forbidden,
    ...notFound,
  },
  async handler(c, { query, principal, repo: access }) {
    requirePrincipal(principal);
    const filter = { ...windowOf(query), user: query.user };
    return timesJson(c, query, (page) => c.get("services").times.listForRepo(access, filter, page));
  },
});

export const userTrackedTimes = route({
  method: "get",
  path: "/repos/{owner}/{repo}/times/{user}",
  operationId: "userTrackedTimes",
  tags: ["repository"],
  summary: "List a user's tracked times in a repo",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object({ ...repoParams, user: v.string() }),
  responses: {
    200: { description: "TrackedTimeList", schema: v.array(api.TrackedTime) },
    ...badRequest,
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, principal, repo: access }) {
    requirePrincipal(principal);
    // Forgejo answers this (older) form unpaged: everything, which Kiln bounds as other such lists.
    return timesJson(c, {}, (page) =>
      c.get("services").times.listForRepo(access, { user: params.user }, page, true),
    );
  },
});

export const userCurrentTrackedTimes = route({
  method: "get",
  path: "/user/times",
  operationId: "userCurrentTrackedTimes",
  tags: ["user"],
  summary: "List the current user's tracked times",
  access: "signed-in",
  scopes: ["user"],
  query: v.object({ ...pageQuery, ...windowQuery }),
  responses: { 200: { description: "TrackedTimeList", schema: v.array(api.TrackedTime) }, ...forbidden },
  async handler(c, { query }) {
    const window = windowOf(query);
    return timesJson(c, query, (page) => c.get("services").times.listForUser(c.get("actor"), window, page));
  },
});

const stopwatchResponses = { ...createdEmpty, ...forbidden, ...notFound, ...conflict } as const;

export const issueStartStopWatch = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/stopwatch/start",
  operationId: "issueStartStopWatch",
  tags: ["issue"],
  summary: "Start stopwatch on an issue.",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  responses: stopwatchResponses,
  async handler(c, { params, repo: access }) {
    await c.get("services").times.startStopwatch(access, params.index);
    return c.body(null, 201);
  },
});

export const issueStopStopWatch = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/stopwatch/stop",
  operationId: "issueStopStopWatch",
  tags: ["issue"],
  summary: "Stop an issue's existing stopwatch.",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  responses: stopwatchResponses,
  async handler(c, { params, repo: access }) {
    await c.get("services").times.stopStopwatch(access, params.index);
    return c.body(null, 201);
  },
});

export const issueDeleteStopWatch = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/stopwatch/delete",
  operationId: "issueDeleteStopWatch",
  tags: ["issue"],
  summary: "Delete an issue's existing stopwatch.",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  responses: { ...empty, ...forbidden, ...notFound, ...conflict },
  async handler(c, { params, repo: access }) {
    await c.get("services").times.cancelStopwatch(access, params.index);
    return c.body(null, 204);
  },
});

export const userGetStopWatches = route({
  method: "get",
  path: "/user/stopwatches",
  operationId: "userGetStopWatches",
  tags: ["user"],
  summary: "Get list of all existing stopwatches",
  access: "signed-in",
  scopes: ["user"],
  query: v.object(pageQuery),
  responses: { 200: { description: "StopWatchList", schema: v.array(api.StopWatch) }, ...forbidden },
  async handler(c, { query }) {
    const now = new Date();
    // As Forgejo's GetUserStopwatches: a page when asked, else all of them.
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").times.listStopwatches(c.get("actor"), page),
      (entry) => toApiStopWatch(entry, now),
    );
  },
});

export const issueTimeRoutes = [
  issueTrackedTimes,
  issueAddTime,
  issueResetTime,
  issueDeleteTime,
  repoTrackedTimes,
  userTrackedTimes,
  userCurrentTrackedTimes,
  issueStartStopWatch,
  issueStopStopWatch,
  issueDeleteStopWatch,
  userGetStopWatches,
];
