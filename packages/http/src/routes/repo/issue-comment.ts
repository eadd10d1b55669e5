import { api, timeOf } from "@kiln/domain";
import {
  accountSight,
  type CommentView,
  groupAssets,
  parseTime,
  toApiComment,
  toApiTimelineComment,
} from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { optionallyPagedJson, UNPAGED_LIMIT } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, repoArchived, validationError } from "../responses.js";
import { type RepoContext, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/issue_comment.go. */

const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
const idParams = v.object({ ...repoParams, id: qs.int("id of the comment") });
const windowQuery = {
  since: v.optional(qs.string("if provided, only comments updated since the specified time are returned.")),
  before: v.optional(qs.string("if provided, only comments updated before the provided time are returned.")),
};
const windowOf = (query: { since?: string | undefined; before?: string | undefined }) => ({
  since: parseTime(query.since),
  before: parseTime(query.before),
});

/** Comments as the API shows them, their posters loaded in one query. */
async function apiComments(c: AppContext, access: RepoContext, views: readonly CommentView[]) {
  const ids = [
    ...new Set(views.map((view) => view.comment.posterId).filter((id): id is number => id !== null)),
  ];
  const [people, files] = await Promise.all([
    c.get("services").users.findByIds(ids),
    c.get("services").attachments.ofComments(views.map((view) => view.comment.id)),
  ]);
  const byId = new Map(people.map((user) => [user.id, user]));
  const assets = groupAssets(files, (a) => a.commentId, c.get("settings"));
  return views.map((view) =>
    toApiComment(
      view,
      access.repo,
      view.comment.posterId === null ? null : (byId.get(view.comment.posterId) ?? null),
      c.get("settings"),
      assets.get(view.comment.id),
    ),
  );
}

export const issueGetRepoComments = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/comments",
  operationId: "issueGetRepoComments",
  tags: ["issue"],
  summary: "List all comments in a repository",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: v.object(repoParams),
  query: v.object({ ...pageQuery, ...windowQuery }),
  responses: {
    200: { description: "CommentList", schema: v.array(api.Comment) },
    ...notFound,
    ...validationError,
  },
  async handler(c, { query, repo: access }) {
    const window = windowOf(query);
    return optionallyPagedJson(
      c,
      query,
      async (page) => {
        const list = await c.get("services").comments.listForRepo(access, window, page);
        return { total: list.total, items: await apiComments(c, access, list.items) };
      },
      (comment) => comment,
    );
  },
});

export const issueGetComment = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/comments/{id}",
  operationId: "issueGetComment",
  tags: ["issue"],
  summary: "Get a comment",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: idParams,
  responses: { 200: { description: "Comment", schema: api.Comment }, ...empty, ...notFound },
  async handler(c, { params, repo: access }) {
    const view = await c.get("services").comments.get(access, params.id);
    if (!view) return c.body(null, 204);
    return c.json((await apiComments(c, access, [view]))[0]);
  },
});

const editComment = async (
  c: AppContext,
  access: RepoContext,
  id: number,
  body: { body: string; updated_at?: string | undefined },
) => {
  const updatedAt = body.updated_at === undefined ? undefined : timeOf(body.updated_at);
  const view = await c.get("services").comments.edit(access, id, body.body, updatedAt);
  if (!view) return c.body(null, 204);
  return c.json((await apiComments(c, access, [view]))[0]);
};

const deleteComment = async (c: AppContext, access: RepoContext, id: number) => {
  await c.get("services").comments.delete(access, id);
  return c.body(null, 204);
};

export const issueEditComment = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/issues/comments/{id}",
  operationId: "issueEditComment",
  tags: ["issue"],
  summary: "Edit a comment",
  access: "signed-in",
  repo: "read",
  notArchived: true,
  scopes: ["issue"],
  params: idParams,
  body: api.EditIssueCommentOption,
  responses: {
    200: { description: "Comment", schema: api.Comment },
    ...empty,
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  handler: (c, { params, body, repo: access }) => editComment(c, access, params.id, body),
});

export const issueDeleteComment = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/comments/{id}",
  operationId: "issueDeleteComment",
  tags: ["issue"],
  summary: "Delete a comment",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: idParams,
  responses: { ...empty, ...forbidden, ...notFound },
  handler: (c, { params, repo: access }) => deleteComment(c, access, params.id),
});

export const issueGetComments = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/comments",
  operationId: "issueGetComments",
  tags: ["issue"],
  summary: `List all comments on an issue (at most ${UNPAGED_LIMIT}; page and limit page them, a Kiln extension)`,
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  query: v.object({ ...pageQuery, ...windowQuery }),
  responses: {
    200: { description: "CommentList", schema: v.array(api.Comment) },
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, query, repo: access }) {
    // Forgejo answers every comment (ListIssueComments has no paging); Kiln answers at most
    // UNPAGED_LIMIT of them, with the total, and pages when asked.
    const window = windowOf(query);
    return optionallyPagedJson(
      c,
      query,
      async (page) => {
        const list = await c.get("services").comments.listForIssue(access, params.index, window, page);
        return { total: list.total, items: await apiComments(c, access, list.items) };
      },
      (comment) => comment,
    );
  },
});

export const issueCreateComment = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/comments",
  operationId: "issueCreateComment",
  tags: ["issue"],
  summary: "Add a comment to an issue",
  access: "signed-in",
  repo: "read",
  notArchived: true,
  readersMayWrite: true,
  scopes: ["issue"],
  params: indexParams,
  body: api.CreateIssueCommentOption,
  responses: {
    201: { description: "Comment", schema: api.Comment },
    ...forbidden,
    ...notFound,
    ...validationError,
    ...repoArchived,
  },
  async handler(c, { params, body, repo: access }) {
    const updatedAt = body.updated_at === undefined ? undefined : timeOf(body.updated_at);
    const view = await c.get("services").comments.create(access, params.index, body.body, updatedAt);
    return c.json((await apiComments(c, access, [view]))[0], 201);
  },
});

export const issueEditCommentDeprecated = route({
  method: "patch",
  path: "/repos/{owner}/{repo}/issues/{index}/comments/{id}",
  operationId: "issueEditCommentDeprecated",
  tags: ["issue"],
  summary: "Edit a comment (deprecated: the index is not needed)",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: v.object({
    ...repoParams,
    index: qs.int("this parameter is ignored"),
    id: qs.int("id of the comment to edit"),
  }),
  body: api.EditIssueCommentOption,
  responses: {
    200: { description: "Comment", schema: api.Comment },
    ...empty,
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  handler: (c, { params, body, repo: access }) => editComment(c, access, params.id, body),
});

export const issueDeleteCommentDeprecated = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/comments/{id}",
  operationId: "issueDeleteCommentDeprecated",
  tags: ["issue"],
  summary: "Delete a comment (deprecated: the index is not needed)",
  access: "signed-in",
  repo: "read",
  scopes: ["issue"],
  params: v.object({
    ...repoParams,
    index: qs.int("this parameter is ignored"),
    id: qs.int("id of the comment to delete"),
  }),
  responses: { ...empty, ...forbidden, ...notFound },
  handler: (c, { params, repo: access }) => deleteComment(c, access, params.id),
});

export const issueGetCommentsAndTimeline = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/timeline",
  operationId: "issueGetCommentsAndTimeline",
  tags: ["issue"],
  summary: "List all comments and events on an issue",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  query: v.object({ ...pageQuery, ...windowQuery }),
  responses: {
    200: { description: "TimelineList", schema: v.array(api.TimelineComment) },
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, query, repo: access }) {
    const window = windowOf(query);
    const viewer = c.get("actor").user;
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").timeline.list(access, params.index, window, page),
      (entry) => toApiTimelineComment(entry, access.repo, accountSight(viewer), c.get("settings")),
    );
  },
});

export const issueCommentRoutes = [
  issueGetRepoComments,
  issueGetComment,
  issueEditComment,
  issueDeleteComment,
  issueGetComments,
  issueCreateComment,
  issueEditCommentDeprecated,
  issueDeleteCommentDeprecated,
  // After `/issues/comments`: Hono's one-expression router needs static segments first.
  issueGetCommentsAndTimeline,
];
