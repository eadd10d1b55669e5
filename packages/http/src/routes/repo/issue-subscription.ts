import { api, formatTime } from "@kiln/domain";
import { accountSight, repoLinks, toApiUser } from "@kiln/service";
import * as v from "valibot";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/issue_subscription.go: who is subscribed to an issue. Any reader
 * may subscribe themselves; the status tells whether anything changed (201) or not (200).
 */

const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
const userParams = v.object({
  ...repoParams,
  index: qs.int("index of the issue", { min: 1 }),
  user: v.pipe(v.string(), v.maxLength(255)),
});
const changed = {
  200: { description: "Already subscribed", schema: "empty" },
  201: { description: "Successfully Subscribed", schema: "empty" },
  304: { description: "User can only subscribe itself if he is no admin", schema: "empty" },
  ...forbidden,
  ...notFound,
} as const;

export const issueAddSubscription = route({
  method: "put",
  path: "/repos/{owner}/{repo}/issues/{index}/subscriptions/{user}",
  operationId: "issueAddSubscription",
  tags: ["issue"],
  summary: "Subscribe user to issue",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["issue"],
  params: userParams,
  responses: changed,
  async handler(c, { params, repo: access }) {
    const done = await c.get("services").issueWatches.set(access, params.index, params.user, true);
    return c.body(null, done ? 201 : 200);
  },
});

export const issueDeleteSubscription = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/subscriptions/{user}",
  operationId: "issueDeleteSubscription",
  tags: ["issue"],
  summary: "Unsubscribe user from issue",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["issue"],
  params: userParams,
  responses: changed,
  async handler(c, { params, repo: access }) {
    const done = await c.get("services").issueWatches.set(access, params.index, params.user, false);
    return c.body(null, done ? 201 : 200);
  },
});

export const issueCheckSubscription = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/subscriptions/check",
  operationId: "issueCheckSubscription",
  tags: ["issue"],
  summary: "Check if user is subscribed to an issue",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  responses: { 200: { description: "WatchInfo", schema: api.WatchInfo }, ...notFound },
  async handler(c, { params, repo: access }) {
    const { issue, subscribed } = await c.get("services").issueWatches.check(access, params.index);
    const links = repoLinks(access.repo, c.get("settings"));
    return c.json({
      subscribed,
      ignored: !subscribed,
      reason: null,
      created_at: formatTime(issue.createdAt),
      url: `${links.api}/issues/${issue.index}/subscriptions`,
      repository_url: links.api,
    });
  },
});

export const issueSubscriptions = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/subscriptions",
  operationId: "issueSubscriptions",
  tags: ["issue"],
  summary: "Get users who subscribed on an issue.",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  query: v.object(pageQuery),
  responses: { 200: { description: "UserList", schema: v.array(api.User) }, ...notFound },
  async handler(c, { params, query, repo: access }) {
    const viewer = c.get("actor").user;
    // As Forgejo's GetIssueWatchers: a page when asked, else all of them (at most UNPAGED_LIMIT).
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").issueWatches.watchers(access, params.index, page),
      (user) => toApiUser(user, accountSight(viewer), c.get("settings")),
    );
  },
});

export const issueSubscriptionRoutes = [
  issueCheckSubscription,
  issueSubscriptions,
  issueAddSubscription,
  issueDeleteSubscription,
];
