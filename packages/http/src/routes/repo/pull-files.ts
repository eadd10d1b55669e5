import { api } from "@kiln/domain";
import { repoLinks, toApiChangedFile } from "@kiln/service";
import * as v from "valibot";
import { pageRequest } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";
import { commitsJson, type DetailQuery, detailOptions, detailQuery, setCommitPaging } from "./commits.js";
import { PULLS, pullIndexParams } from "./pull.js";

/** Forgejo's routers/api/v1/repo/pull.go: what a pull request changes — commits, files, diff and patch. */

export const repoGetPullRequestCommits = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}/commits",
  operationId: "repoGetPullRequestCommits",
  tags: ["repository"],
  summary: "Get commits for a pull request",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: pullIndexParams,
  query: v.object({ ...pageQuery, verification: detailQuery.verification, files: detailQuery.files }),
  responses: { 200: { description: "CommitList", schema: v.array(api.Commit) }, ...notFound },
  async handler(c, { params, query, repo: access }) {
    const services = c.get("services");
    const page = pageRequest(query, c.get("settings").api);
    const found = await services.pullCompare.commits(access, params.index, page);
    const detail: DetailQuery = { ...query, stat: true };
    const view = await services.commits.describe(access.repo, found.items, detailOptions(detail));
    setCommitPaging(c, page, found.total);
    return c.json(commitsJson(c, access, view, detail));
  },
});

export const repoGetPullRequestFiles = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}/files",
  operationId: "repoGetPullRequestFiles",
  tags: ["repository"],
  summary: "Get changed files for a pull request",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: pullIndexParams,
  query: v.object({
    ...pageQuery,
    "skip-to": v.optional(qs.string("skip to given file")),
    whitespace: v.optional(qs.string("whitespace behavior")),
  }),
  responses: { 200: { description: "ChangedFileList", schema: v.array(api.ChangedFile) }, ...notFound },
  async handler(c, { params, query, repo: access }) {
    const page = pageRequest(query, c.get("settings").api);
    const { files, headSha } = await c.get("services").pullCompare.files(access, params.index, page, {
      skipTo: query["skip-to"],
      whitespace: query.whitespace,
    });
    setCommitPaging(c, page, files.total);
    const links = repoLinks(access.repo, c.get("settings"));
    return c.json(files.items.map((file) => toApiChangedFile(file, links, headSha)));
  },
});

export const repoDownloadPullDiffOrPatch = route({
  method: "get",
  path: "/repos/{owner}/{repo}/pulls/{index}.{diffType}",
  operationId: "repoDownloadPullDiffOrPatch",
  tags: ["repository"],
  summary: "Get a pull request diff or patch",
  access: "public",
  repo: PULLS,
  scopes: ["repository"],
  params: v.object({
    ...pullIndexParams.entries,
    diffType: qs.enum(["diff", "patch"], "whether the output is diff or patch"),
  }),
  query: v.object({
    binary: v.optional(
      qs.bool("whether to include binary file changes. if true, the diff is applicable with `git apply`"),
    ),
  }),
  responses: { 200: { description: "APIString", schema: "text" }, ...notFound },
  async handler(c, { params, query, repo: access }) {
    const stream = await c.get("services").pullCompare.diff(access, params.index, {
      patch: params.diffType === "patch",
      binary: query.binary === true,
    });
    return c.body(stream, 200, { "Content-Type": "text/plain; charset=utf-8" });
  },
});

export const pullFileRoutes = [
  repoGetPullRequestCommits,
  repoGetPullRequestFiles,
  repoDownloadPullDiffOrPatch,
];
