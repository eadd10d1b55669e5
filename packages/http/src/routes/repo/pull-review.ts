import { api } from "@kiln/domain";
import {
  accountSight,
  type RepoAccess,
  type ReviewCommentView,
  type ReviewView,
  toApiPullReview,
  toApiPullReviewComment,
} from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { optionallyPagedJson, pagedJson, UNPAGED_LIMIT } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, validationError } from "../responses.js";
import { PULLS, pullIndexParams } from "./pull.js";

/**
 * Forgejo's routers/api/v1/repo/pull_review.go: reviews of a pull request, their line comments,
 * dismissals and review requests. Any reader of the pull request may review it (Forgejo puts no
 * write requirement and no mustNotBeArchived on these routes).
 */

const reviewParams = v.object({
  ...pullIndexParams.entries,
  id: qs.int("id of the review"),
});
const commentParams = v.object({
  ...reviewParams.entries,
  comment: qs.int("id of the comment"),
});

const reviewJson = (c: AppContext, access: RepoAccess) => (view: ReviewView) =>
  toApiPullReview(view, access.repo, accountSight(c.get("actor").user), c.get("settings"));
const commentJson = (c: AppContext, access: RepoAccess) => (view: ReviewCommentView) =>
  toApiPullReviewComment(view, access.repo, accountSight(c.get("actor").user), c.get("settings"));

const reviewResponse = { 200: { description: "PullReview", schema: api.PullReview } } as const;

export const repoListPullReviews = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews",
  operationId: "repoListPullReviews",
  tags: ["repository"],
  summary: "List all reviews for a pull request (always paged, with X-Total-Count and Link)",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: pullIndexParams,
  query: v.object(pageQuery),
  responses: { 200: { description: "PullReviewList", schema: v.array(api.PullReview) }, ...notFound },
  async handler(c, { params, query, repo: access }) {
    return pagedJson(
      c,
      query,
      (page) => c.get("services").reviews.list(access, params.index, page),
      reviewJson(c, access),
    );
  },
});

export const repoCreatePullReview = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews",
  operationId: "repoCreatePullReview",
  tags: ["repository"],
  summary: "Create a review to an pull request",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  scopes: ["repository"],
  params: pullIndexParams,
  body: api.CreatePullReviewOptions,
  responses: { ...reviewResponse, ...notFound, ...validationError },
  async handler(c, { params, body, repo: access }) {
    const view = await c.get("services").reviews.create(access, params.index, {
      event: body.event ?? "",
      body: body.body ?? "",
      commitId: body.commit_id ?? undefined,
      comments: (body.comments ?? []).map((comment) => ({
        path: comment.path ?? "",
        body: comment.body ?? "",
        oldPosition: comment.old_position ?? 0,
        newPosition: comment.new_position ?? 0,
      })),
    });
    // Forgejo answers a new review with 200.
    return c.json(reviewJson(c, access)(view), 200);
  },
});

export const repoGetPullReview = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}",
  operationId: "repoGetPullReview",
  tags: ["repository"],
  summary: "Get a specific review for a pull request",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: reviewParams,
  responses: { ...reviewResponse, ...notFound },
  async handler(c, { params, repo: access }) {
    const view = await c.get("services").reviews.get(access, params.index, params.id);
    return c.json(reviewJson(c, access)(view));
  },
});

export const repoSubmitPullReview = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}",
  operationId: "repoSubmitPullReview",
  tags: ["repository"],
  summary: "Submit a pending review to an pull request",
  access: "signed-in",
  repo: PULLS,
  scopes: ["repository"],
  params: reviewParams,
  body: api.SubmitPullReviewOptions,
  responses: { ...reviewResponse, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, body, repo: access }) {
    const view = await c
      .get("services")
      .reviews.submit(access, params.index, params.id, { event: body.event ?? "", body: body.body ?? "" });
    return c.json(reviewJson(c, access)(view));
  },
});

export const repoDeletePullReview = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}",
  operationId: "repoDeletePullReview",
  tags: ["repository"],
  summary: "Delete a specific review from a pull request",
  access: "signed-in",
  repo: PULLS,
  scopes: ["repository"],
  params: reviewParams,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, repo: access }) {
    await c.get("services").reviews.delete(access, params.index, params.id);
    return c.body(null, 204);
  },
});

export const repoGetPullReviewComments = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments",
  operationId: "repoGetPullReviewComments",
  tags: ["repository"],
  summary: `Get a specific review for a pull request (its line comments, at most ${UNPAGED_LIMIT}; page and limit page them, a Kiln extension)`,
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: reviewParams,
  query: v.object(pageQuery),
  responses: {
    200: { description: "PullReviewCommentList", schema: v.array(api.PullReviewComment) },
    ...notFound,
  },
  async handler(c, { params, query, repo: access }) {
    return optionallyPagedJson(
      c,
      query,
      (page) => c.get("services").reviewComments.list(access, params.index, params.id, page),
      commentJson(c, access),
    );
  },
});

export const repoCreatePullReviewComment = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments",
  operationId: "repoCreatePullReviewComment",
  tags: ["repository"],
  summary: "Add a new comment to a pull request review",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  scopes: ["repository"],
  params: reviewParams,
  body: api.CreatePullReviewComment,
  responses: {
    200: { description: "PullReviewComment", schema: api.PullReviewComment },
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const view = await c.get("services").reviewComments.create(access, params.index, params.id, {
      path: body.path ?? "",
      body: body.body ?? "",
      oldPosition: body.old_position ?? 0,
      newPosition: body.new_position ?? 0,
    });
    return c.json(commentJson(c, access)(view), 200);
  },
});

export const repoGetPullReviewComment = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}",
  operationId: "repoGetPullReviewComment",
  tags: ["repository"],
  summary: "Get a pull review comment",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: commentParams,
  responses: {
    200: { description: "PullReviewComment", schema: api.PullReviewComment },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params, repo: access }) {
    const view = await c.get("services").reviewComments.get(access, params.index, params.id, params.comment);
    return c.json(commentJson(c, access)(view));
  },
});

export const repoDeletePullReviewComment = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/comments/{comment}",
  operationId: "repoDeletePullReviewComment",
  tags: ["repository"],
  summary: "Delete a pull review comment",
  access: "signed-in",
  repo: PULLS,
  scopes: ["repository"],
  params: commentParams,
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params, repo: access }) {
    await c.get("services").reviewComments.delete(access, params.index, params.id, params.comment);
    return c.body(null, 204);
  },
});

export const repoDismissPullReview = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/dismissals",
  operationId: "repoDismissPullReview",
  tags: ["repository"],
  summary: "Dismiss a review for a pull request",
  access: "signed-in",
  repo: PULLS,
  scopes: ["repository"],
  params: reviewParams,
  body: api.DismissPullReviewOptions,
  responses: { ...reviewResponse, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, body, repo: access }) {
    const view = await c.get("services").reviews.dismiss(access, params.index, params.id, {
      dismiss: true,
      message: body.message ?? "",
      priors: body.priors ?? false,
    });
    return c.json(reviewJson(c, access)(view));
  },
});

export const repoUnDismissPullReview = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls/{index}/reviews/{id}/undismissals",
  operationId: "repoUnDismissPullReview",
  tags: ["repository"],
  summary: "Cancel to dismiss a review for a pull request",
  access: "signed-in",
  repo: PULLS,
  scopes: ["repository"],
  params: reviewParams,
  responses: { ...reviewResponse, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, repo: access }) {
    const view = await c
      .get("services")
      .reviews.dismiss(access, params.index, params.id, { dismiss: false, message: "", priors: false });
    return c.json(reviewJson(c, access)(view));
  },
});

const requestInput = (body: v.InferOutput<typeof api.PullReviewRequestOptions>) => ({
  reviewers: body.reviewers ?? [],
  teamReviewers: body.team_reviewers ?? [],
});

export const repoCreatePullReviewRequests = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls/{index}/requested_reviewers",
  operationId: "repoCreatePullReviewRequests",
  tags: ["repository"],
  summary: "create review requests for a pull request",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  scopes: ["repository"],
  params: pullIndexParams,
  body: api.PullReviewRequestOptions,
  responses: {
    201: { description: "PullReviewList", schema: v.array(api.PullReview) },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo: access }) {
    const made = await c.get("services").reviewRequests.request(access, params.index, requestInput(body));
    return c.json(made.map(reviewJson(c, access)), 201);
  },
});

export const repoDeletePullReviewRequests = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/pulls/{index}/requested_reviewers",
  operationId: "repoDeletePullReviewRequests",
  tags: ["repository"],
  summary: "cancel review requests for a pull request",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  scopes: ["repository"],
  params: pullIndexParams,
  body: api.PullReviewRequestOptions,
  responses: { ...empty, ...forbidden, ...notFound, ...validationError },
  async handler(c, { params, body, repo: access }) {
    await c.get("services").reviewRequests.withdraw(access, params.index, requestInput(body));
    return c.body(null, 204);
  },
});

/**
 * The review routes, registered before `/pulls/{base}/{head*}`; deletions last, so that the
 * fuzzer, which walks the routes in this order, reaches the others with the fixture's review.
 */
export const pullReviewRoutes = [
  repoListPullReviews,
  repoCreatePullReview,
  repoGetPullReview,
  repoSubmitPullReview,
  repoGetPullReviewComments,
  repoCreatePullReviewComment,
  repoGetPullReviewComment,
  repoDismissPullReview,
  repoUnDismissPullReview,
  repoCreatePullReviewRequests,
  repoDeletePullReviewRequests,
  repoDeletePullReviewComment,
  repoDeletePullReview,
];
