import { api, NotFoundError } from "@kiln/domain";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound, quotaExceeded, repoArchived, validationError } from "../responses.js";
import { PULLS, pullIndexParams } from "./pull.js";

/** Forgejo's routers/api/v1/repo/pull.go: merging a pull request, and updating its head from its base. */

export const repoPullRequestIsMerged = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}/merge",
  operationId: "repoPullRequestIsMerged",
  tags: ["repository"],
  summary: "Check if a pull request has been merged",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: pullIndexParams,
  responses: { 204: { description: "pull request has been merged", schema: "empty" }, ...notFound },
  async handler(c, { params, repo: access }) {
    if (!(await c.get("services").merges.isMerged(access, params.index))) throw new NotFoundError();
    return c.body(null, 204);
  },
});

export const repoMergePullRequest = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls/{index}/merge",
  operationId: "repoMergePullRequest",
  tags: ["repository"],
  summary: "Merge a pull request",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  notArchived: true,
  scopes: ["repository"],
  params: pullIndexParams,
  body: api.MergePullRequestOption,
  responses: {
    200: { description: "APIEmpty", schema: "empty" },
    201: { description: "the merge is scheduled for when the pull request may be merged", schema: "empty" },
    ...notFound,
    409: {
      description: "head_commit_id no longer names the head, or the base moved meanwhile",
      schema: api.APIError,
    },
    ...quotaExceeded,
    422: { description: "the merge is not allowed: the message names the reason", schema: api.APIError },
    ...repoArchived,
  },
  quota: { subject: "size:git:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, body, repo: access }) {
    const outcome = await c.get("services").merges.merge(access, params.index, {
      style: body.Do,
      title: body.MergeTitleField ?? body.merge_title_field ?? undefined,
      message: body.MergeMessageField ?? body.merge_message_field ?? undefined,
      mergeCommitId: body.MergeCommitID ?? body.merge_commit_id ?? undefined,
      headCommitId: body.head_commit_id ?? undefined,
      forceMerge: body.force_merge ?? undefined,
      mergeWhenChecksSucceed: body.merge_when_checks_succeed ?? undefined,
      deleteBranchAfterMerge: body.delete_branch_after_merge ?? undefined,
    });
    return c.body(null, outcome === "scheduled" ? 201 : 200);
  },
});

export const repoCancelScheduledAutoMerge = route({
  method: "delete",
  path: "/repos/{owner}/{repo}/pulls/{index}/merge",
  operationId: "repoCancelScheduledAutoMerge",
  tags: ["repository"],
  summary: "Cancel the scheduled auto merge for the given pull request",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  notArchived: true,
  scopes: ["repository"],
  params: pullIndexParams,
  responses: { ...empty, ...forbidden, ...notFound, ...repoArchived },
  async handler(c, { params, repo: access }) {
    await c.get("services").merges.cancelScheduled(access, params.index);
    return c.body(null, 204);
  },
});

export const repoUpdatePullRequest = route({
  method: "post",
  path: "/repos/{owner}/{repo}/pulls/{index}/update",
  operationId: "repoUpdatePullRequest",
  tags: ["repository"],
  summary: "Merge PR's baseBranch into headBranch",
  access: "signed-in",
  repo: PULLS,
  readersMayWrite: true,
  notArchived: true,
  scopes: ["repository"],
  params: pullIndexParams,
  query: v.object({
    style: v.optional(qs.string("how to update pull request (merge or rebase; anything else merges)")),
  }),
  responses: {
    200: { description: "APIEmpty", schema: "empty" },
    ...forbidden,
    ...notFound,
    409: { description: "the update conflicts", schema: api.APIError },
    ...quotaExceeded,
    ...validationError,
    ...repoArchived,
  },
  quota: { subject: "size:git:all", owner: (_c, { repo }) => repo.owner },
  async handler(c, { params, query, repo: access }) {
    await c
      .get("services")
      .pullUpdates.update(access, params.index, query.style === "rebase" ? "rebase" : "merge");
    return c.body(null, 200);
  },
});

export const pullMergeRoutes = [
  repoPullRequestIsMerged,
  repoMergePullRequest,
  repoCancelScheduledAutoMerge,
  repoUpdatePullRequest,
];
