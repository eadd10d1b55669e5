import { api } from "@kiln/domain";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";
import { onePull, PULLS } from "./pull.js";

/** Forgejo's routers/api/v1/repo/commits.go GetCommitPullRequest (beside commits.ts). */
export const repoGetCommitPullRequest = route({
  method: "get",
  path: "/repos/{owner}/{repo}/commits/{sha}/pull",
  operationId: "repoGetCommitPullRequest",
  tags: ["repository"],
  summary: "Get the merged pull request of the commit",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: v.object({ ...repoParams, sha: qs.string("SHA of the commit to get") }),
  responses: { 200: { description: "PullRequest", schema: api.PullRequest }, ...notFound },
  async handler(c, { params, repo }) {
    return c.json(await onePull(c, repo, await c.get("services").pulls.byMergedCommit(repo, params.sha)));
  },
});

export const commitPullRoutes = [repoGetCommitPullRequest];
