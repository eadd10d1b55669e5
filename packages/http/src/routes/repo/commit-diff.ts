import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/commits.go DownloadCommitDiffOrPatch (beside commits.ts). */
export const repoDownloadCommitDiffOrPatch = route({
  method: "get",
  path: "/repos/{owner}/{repo}/git/commits/{sha}.{diffType}",
  operationId: "repoDownloadCommitDiffOrPatch",
  tags: ["repository"],
  summary: "Get a commit's diff or patch",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({
    ...repoParams,
    sha: qs.string("SHA of the commit to get"),
    diffType: qs.enum(["diff", "patch"], "whether the output is diff or patch"),
  }),
  responses: { 200: { description: "APIString", schema: "text" }, ...notFound },
  async handler(c, { params, repo }) {
    const stream = await c
      .get("services")
      .commitDiffs.raw(repo.repo, params.sha, { patch: params.diffType === "patch" });
    return c.body(stream, 200, { "Content-Type": "text/plain; charset=utf-8" });
  },
});

export const commitDiffRoutes = [repoDownloadCommitDiffOrPatch];
