import { api } from "@kiln/domain";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { commitsJson } from "./commits.js";
import { repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/compare.go. */

export const repoCompareDiff = route({
  method: "get",
  path: "/repos/{owner}/{repo}/compare/{basehead*}",
  operationId: "repoCompareDiff",
  tags: ["repository"],
  summary: "Get commit comparison information",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({ ...repoParams, basehead: qs.string("compare two branches or commits") }),
  query: v.object({
    verification: v.optional(
      qs.bool("include verification for every commit (disable for speedup, default 'true')"),
    ),
    files: v.optional(
      qs.bool("include a list of affected files for every commit (disable for speedup, default 'true')"),
    ),
  }),
  responses: {
    200: { description: "Compare", schema: api.Compare },
    ...notFound,
  },
  async handler(c, { params, query, repo: access }) {
    const view = await c.get("services").compare.compare(access, params.basehead, {
      ...(query.files !== undefined ? { files: query.files } : {}),
      ...(query.verification !== undefined ? { verification: query.verification } : {}),
    });
    return c.json({
      total_commits: view.totalCommits,
      commits: commitsJson(c, access, view, query),
      files: view.files.map((f) => ({ filename: f.filename, status: f.status })),
    });
  },
});

export const compareRoutes = [repoCompareDiff];
