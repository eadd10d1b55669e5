import { api, type Issue } from "@kiln/domain";
import { LOCK_REASONS } from "@kiln/service";
import * as v from "valibot";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, repoArchived, validationError } from "../responses.js";
import { repoParams } from "./context.js";
import { apiIssues } from "./issue.js";

/**
 * Forgejo's routers/api/v1/repo/issue_pin.go and issue_dependency.go, and locking (a Kiln
 * extension in Gitea's shape): how issues relate to each other and stand in their repository.
 */

const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;

export const issueLockIssue = route({
  method: "put",
  path: "/repos/{owner}/{repo}/issues/{index}/lock",
  operationId: "issueLockIssue",
  extension:
    "Kiln's specification requires locking (`…/lock`); Forgejo's API has none, so Kiln takes Gitea's: PUT locks, DELETE unlocks, 204",
  tags: ["issue"],
  summary: `Lock an issue; lock_reason is empty or one of: ${LOCK_REASONS.join(", ")}`,
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  body: api.LockIssueOption,
  bodyRequired: false,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, body, repo: access }) {
    await c.get("services").issueStates.lock(access, params.index, body?.lock_reason ?? "");
    return c.body(null, 204);
  },
});

export const issueUnlockIssue = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/lock",
  operationId: "issueUnlockIssue",
  extension: "the counterpart of `PUT …/issues/{index}/lock` (Gitea's shape)",
  tags: ["issue"],
  summary: "Unlock an issue",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").issueStates.unlock(access, params.index);
    return c.body(null, 204);
  },
});

export const pinIssue = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/pin",
  operationId: "pinIssue",
  tags: ["issue"],
  summary: "Pin an Issue",
  access: "signed-in",
  repo: "admin",
  scopes: ["issue"],
  params: indexParams,
  responses: { ...empty, ...badRequest, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").issueStates.pin(access, params.index);
    return c.body(null, 204);
  },
});

export const unpinIssue = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/pin",
  operationId: "unpinIssue",
  tags: ["issue"],
  summary: "Unpin an Issue",
  access: "signed-in",
  repo: "admin",
  scopes: ["issue"],
  params: indexParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").issueStates.unpin(access, params.index);
    return c.body(null, 204);
  },
});

export const moveIssuePin = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/issues/{index}/pin/{position}",
  operationId: "moveIssuePin",
  tags: ["issue"],
  summary: "Moves the Pin to the given Position",
  access: "signed-in",
  repo: "admin",
  scopes: ["issue"],
  params: v.object({
    ...repoParams,
    index: qs.int("index of issue", { min: 1 }),
    position: qs.int("the new position", { min: 1 }),
  }),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").issueStates.move(access, params.index, params.position);
    return c.body(null, 204);
  },
});

export const repoListPinnedIssues = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/pinned",
  operationId: "repoListPinnedIssues",
  tags: ["repository"],
  summary: "List a repo's pinned issues",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: v.object(repoParams),
  responses: { 200: { description: "IssueList", schema: v.array(api.Issue) }, ...notFound },
  async handler(c, { repo: access }) {
    // All of them, as Forgejo answers ([repository.issue] MAX_PINNED bounds them), with the count.
    const list = await c.get("services").issueStates.pinned(access, false);
    c.header("X-Total-Count", String(list.length));
    c.header("Access-Control-Expose-Headers", "X-Total-Count, Link");
    return c.json(await apiIssues(c, list, [access.repo]));
  },
});

export const repoNewPinAllowed = route({
  method: "get",
  path: "/repos/{owner}/{repo}/new_pin_allowed",
  operationId: "repoNewPinAllowed",
  tags: ["repository"],
  summary: "Returns if new Issue Pins are allowed",
  access: "public",
  repo: "read",
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: {
    200: { description: "RepoNewIssuePinsAllowed", schema: api.NewIssuePinsAllowed },
    ...notFound,
  },
  async handler(c, { repo: access }) {
    const allowed = await c.get("services").issueStates.newPinAllowed(access);
    return c.json({ issues: allowed.issues, pull_requests: allowed.pulls });
  },
});

/** Answers a page of an in-memory list (dependency lists are bounded and filtered for the caller). */
function issuePage(
  c: Parameters<typeof apiIssues>[0],
  query: { page?: string | undefined; limit?: string | undefined },
  list: Issue[],
  known: Parameters<typeof apiIssues>[2],
) {
  return pagedJson(
    c,
    query,
    async (page) => ({
      total: list.length,
      items: await apiIssues(c, list.slice((page.page - 1) * page.limit, page.page * page.limit), known),
    }),
    (issue) => issue,
  );
}

export const issueListIssueDependencies = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/dependencies",
  operationId: "issueListIssueDependencies",
  tags: ["issue"],
  summary: "List an issue's dependencies, i.e all issues that block this issue.",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  query: v.object(pageQuery),
  responses: { 200: { description: "IssueList", schema: v.array(api.Issue) }, ...notFound },
  async handler(c, { params, query, repo: access }) {
    const list = await c.get("services").issueDependencies.dependencies(access, params.index);
    return issuePage(c, query, list, [access.repo]);
  },
});

export const issueListBlocks = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/blocks",
  operationId: "issueListBlocks",
  tags: ["issue"],
  summary: "List issues that are blocked by this issue",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  query: v.object(pageQuery),
  responses: { 200: { description: "IssueList", schema: v.array(api.Issue) }, ...notFound },
  async handler(c, { params, query, repo: access }) {
    const list = await c.get("services").issueDependencies.blocks(access, params.index);
    return issuePage(c, query, list, [access.repo]);
  },
});

const changeResponses = { ...badRequest, ...forbidden, ...notFound, ...validationError } as const;

/** The four changes: add or remove, with the path's issue as the blocked one or the blocker. */
function dependencyChange(
  method: "post" | "delete",
  suffix: "dependencies" | "blocks",
  operationId: string,
  summary: string,
) {
  const adding = method === "post";
  // Forgejo guards …/dependencies (the path's issue is the one that changes) with
  // mustNotBeArchived; through …/blocks an archived blocked issue is 404, as the service answers.
  const guarded = suffix === "dependencies";
  const responses = guarded ? { ...changeResponses, ...repoArchived } : changeResponses;
  return route({
    method,
    path: `/repos/{owner}/{repo}/issues/{index}/${suffix}`,
    operationId,
    tags: ["issue"],
    summary,
    access: "signed-in",
    repo: "read",
    ...(guarded ? { notArchived: true as const } : {}),
    scopes: ["issue"],
    params: indexParams,
    body: api.IssueMeta,
    responses: adding
      ? { 201: { description: "Issue", schema: api.Issue }, ...responses }
      : { 200: { description: "Issue", schema: api.Issue }, ...responses },
    async handler(c, { params, body, repo: access }) {
      const service = c.get("services").issueDependencies;
      const blockedIsPath = suffix === "dependencies";
      const issue = adding
        ? await service.add(access, params.index, body, blockedIsPath)
        : await service.remove(access, params.index, body, blockedIsPath);
      const [json] = await apiIssues(c, [issue], [access.repo]);
      return c.json(json, adding ? 201 : 200);
    },
  });
}

export const issueCreateIssueDependencies = dependencyChange(
  "post",
  "dependencies",
  "issueCreateIssueDependencies",
  "Make the issue in the url depend on the issue in the form.",
);
export const issueRemoveIssueDependencies = dependencyChange(
  "delete",
  "dependencies",
  "issueRemoveIssueDependencies",
  "Remove an issue dependency",
);
export const issueCreateIssueBlocking = dependencyChange(
  "post",
  "blocks",
  "issueCreateIssueBlocking",
  "Block the issue given in the body by the issue in path",
);
export const issueRemoveIssueBlocking = dependencyChange(
  "delete",
  "blocks",
  "issueRemoveIssueBlocking",
  "Unblock the issue given in the body by the issue in path",
);

/** `/issues/pinned` must come before `/issues/{index}`, which would take `pinned` for an index. */
export const issuePinnedRoutes = [repoListPinnedIssues, repoNewPinAllowed];

export const issueRelationRoutes = [
  issueLockIssue,
  issueUnlockIssue,
  pinIssue,
  unpinIssue,
  moveIssuePin,
  issueListIssueDependencies,
  issueCreateIssueDependencies,
  issueRemoveIssueDependencies,
  issueListBlocks,
  issueCreateIssueBlocking,
  issueRemoveIssueBlocking,
];
