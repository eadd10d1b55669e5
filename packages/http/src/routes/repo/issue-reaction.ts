import { api } from "@kiln/domain";
import * as v from "valibot";
import { toApiReaction } from "../../convert/time.js";
import { optionallyPagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/issue_reaction.go: reactions to issues and comments, of the kinds
 * `[ui] REACTIONS` allows (others are 403). Any reader may react, except on a locked issue.
 */

const indexParams = v.object({ ...repoParams, index: qs.int("index of the issue", { min: 1 }) });
const commentParams = v.object({ ...repoParams, id: qs.int("id of the comment") });
const added = {
  200: { description: "Reaction", schema: api.Reaction },
  201: { description: "Reaction", schema: api.Reaction },
  ...forbidden,
  ...notFound,
} as const;
const removed = { 200: { description: "APIEmpty", schema: "empty" }, ...forbidden, ...notFound } as const;

export const issueGetIssueReactions = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/{index}/reactions",
  operationId: "issueGetIssueReactions",
  tags: ["issue"],
  summary: "Get a list reactions of an issue",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: indexParams,
  query: v.object(pageQuery),
  responses: {
    200: { description: "ReactionList", schema: v.array(api.Reaction) },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, query, repo: ctx }) {
    const viewer = c.get("actor").user;
    // As Forgejo's FindReactions: a page when asked, else all of them (at most UNPAGED_LIMIT).
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").reactions.listForIssue(ctx, params.index, page),
      (view) => toApiReaction(view, viewer, c.get("settings")),
    );
  },
});

export const issuePostIssueReaction = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/{index}/reactions",
  operationId: "issuePostIssueReaction",
  tags: ["issue"],
  summary: "Add a reaction to an issue",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["issue"],
  params: indexParams,
  body: api.EditReactionOption,
  bodyRequired: false,
  responses: added,
  async handler(c, { params, body, repo: ctx }) {
    const { view, created } = await c
      .get("services")
      .reactions.addToIssue(ctx, params.index, body?.content ?? "");
    return c.json(toApiReaction(view, c.get("actor").user, c.get("settings")), created ? 201 : 200);
  },
});

export const issueDeleteIssueReaction = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/{index}/reactions",
  operationId: "issueDeleteIssueReaction",
  tags: ["issue"],
  summary: "Remove a reaction from an issue",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["issue"],
  params: indexParams,
  body: api.EditReactionOption,
  bodyRequired: false,
  responses: removed,
  async handler(c, { params, body, repo: ctx }) {
    await c.get("services").reactions.removeFromIssue(ctx, params.index, body?.content ?? "");
    return c.body(null, 200);
  },
});

export const issueGetCommentReactions = route({
  method: "get",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/reactions",
  operationId: "issueGetCommentReactions",
  tags: ["issue"],
  summary: "Get a list of reactions from a comment of an issue",
  access: "public",
  repo: "read",
  scopes: ["issue"],
  params: commentParams,
  query: v.object(pageQuery),
  responses: {
    200: { description: "ReactionList", schema: v.array(api.Reaction) },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, query, repo: ctx }) {
    const viewer = c.get("actor").user;
    // Forgejo answers all of them; Kiln at most UNPAGED_LIMIT, with X-Total-Count, paged when asked.
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").reactions.listForComment(ctx, params.id, page),
      (view) => toApiReaction(view, viewer, c.get("settings")),
    );
  },
});

export const issuePostCommentReaction = route({
  method: "post",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/reactions",
  operationId: "issuePostCommentReaction",
  tags: ["issue"],
  summary: "Add a reaction to a comment of an issue",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["issue"],
  params: commentParams,
  body: api.EditReactionOption,
  bodyRequired: false,
  responses: added,
  async handler(c, { params, body, repo: ctx }) {
    const { view, created } = await c
      .get("services")
      .reactions.addToComment(ctx, params.id, body?.content ?? "");
    return c.json(toApiReaction(view, c.get("actor").user, c.get("settings")), created ? 201 : 200);
  },
});

export const issueDeleteCommentReaction = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/issues/comments/{id}/reactions",
  operationId: "issueDeleteCommentReaction",
  tags: ["issue"],
  summary: "Remove a reaction from a comment of an issue",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["issue"],
  params: commentParams,
  body: api.EditReactionOption,
  bodyRequired: false,
  responses: removed,
  async handler(c, { params, body, repo: ctx }) {
    await c.get("services").reactions.removeFromComment(ctx, params.id, body?.content ?? "");
    return c.body(null, 200);
  },
});

export const issueReactionRoutes = [
  issueGetCommentReactions,
  issuePostCommentReaction,
  issueDeleteCommentReaction,
  issueGetIssueReactions,
  issuePostIssueReaction,
  issueDeleteIssueReaction,
];
