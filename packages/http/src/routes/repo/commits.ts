import { api, InvalidArgumentError, type PageRequest } from "@kiln/domain";
import { isValidRefName } from "@kiln/git";
import {
  accountSight,
  type CommitDetailOptions,
  type CommitsView,
  repoLinks,
  toApiCommit,
} from "@kiln/service";
import * as v from "valibot";
import type { AppContext } from "../../env.js";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound, validationError } from "../responses.js";
import { type RepoContext, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/commits.go: history and single commits. */

export const detailQuery = {
  stat: v.optional(qs.bool("include diff stats for every commit (disable for speedup, default 'true')")),
  verification: v.optional(
    qs.bool("include verification for every commit (disable for speedup, default 'true')"),
  ),
  files: v.optional(
    qs.bool("include a list of affected files for every commit (disable for speedup, default 'true')"),
  ),
};

export type DetailQuery = { stat?: boolean; verification?: boolean; files?: boolean };

export function detailOptions(query: DetailQuery): CommitDetailOptions {
  return {
    ...(query.stat !== undefined ? { stat: query.stat } : {}),
    ...(query.files !== undefined ? { files: query.files } : {}),
    ...(query.verification !== undefined ? { verification: query.verification } : {}),
  };
}

export function commitsJson(c: AppContext, access: RepoContext, view: CommitsView, query: DetailQuery) {
  const links = repoLinks(access.repo, c.get("settings"));
  return view.commits.map((commit) =>
    toApiCommit(commit, view.users, links, accountSight(access.viewer), c.get("settings"), {
      ...(query.verification !== undefined ? { verification: query.verification } : {}),
      ...(view.verifications?.has(commit.sha) ? { checked: view.verifications.get(commit.sha) } : {}),
    }),
  );
}

/**
 * Paging headers of a history page, as Forgejo's GetAllCommits sets them: `X-Total-Count` and
 * `Link` from the whole history's count, and the older `X-Page`, `X-PerPage`, `X-Total`,
 * `X-PageCount` and `X-HasMore` kept for clients that still read them.
 */
export function setCommitPaging(c: AppContext, page: PageRequest, total: number) {
  setPagingHeaders(c, page, total);
  const pageCount = Math.ceil(total / page.limit);
  c.header("X-Page", String(page.page));
  c.header("X-PerPage", String(page.limit));
  c.header("X-Total", String(total));
  c.header("X-PageCount", String(pageCount));
  c.header("X-HasMore", String(page.page < pageCount));
  c.header(
    "Access-Control-Expose-Headers",
    "X-Total-Count, Link, X-Page, X-PerPage, X-Total, X-PageCount, X-HasMore",
  );
}

export const repoGetAllCommits = route({
  method: "get",
  path: "/repos/{owner}/{repo}/commits",
  operationId: "repoGetAllCommits",
  tags: ["repository"],
  summary: "Get a list of all commits from a repository",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object(repoParams),
  query: v.object({
    sha: v.optional(qs.string("SHA or branch to start listing commits from (usually 'master')")),
    path: v.optional(qs.string("filepath of a file/dir")),
    ...detailQuery,
    ...pageQuery,
  }),
  responses: {
    200: { description: "CommitList", schema: v.array(api.Commit) },
    ...notFound,
    409: { description: "EmptyRepository", schema: api.APIError },
  },
  async handler(c, { query, repo: access }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").commits.list(access.repo, {
      ...(query.sha ? { sha: query.sha } : {}),
      ...(query.path ? { path: query.path } : {}),
      ...detailOptions(query),
      page: page.page,
      limit: page.limit,
    });
    setCommitPaging(c, page, list.total);
    return c.json(commitsJson(c, access, list, query));
  },
});

const singleResponses = {
  200: { description: "Commit", schema: api.Commit },
  ...notFound,
};

export const repoGetCommitByRef = route({
  method: "get",
  path: "/repos/{owner}/{repo}/commits/{ref}",
  operationId: "repoGetCommitByRef",
  extension:
    "Kiln's specification lists `GET /repos/{owner}/{repo}/commits/{ref}`: one commit for a branch, tag or sha",
  tags: ["repository"],
  summary: "Get the commit a branch, tag or sha names",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({
    ...repoParams,
    ref: qs.string("name of a branch, tag or commit (slashes percent-encoded)"),
  }),
  query: v.object(detailQuery),
  responses: singleResponses,
  async handler(c, { params, query, repo: access }) {
    const view = await c.get("services").commits.get(access.repo, params.ref, detailOptions(query));
    return c.json(commitsJson(c, access, view, query)[0]);
  },
});

export const repoGetSingleCommit = route({
  method: "get",
  path: "/repos/{owner}/{repo}/git/commits/{sha}",
  operationId: "repoGetSingleCommit",
  tags: ["repository"],
  summary: "Get a single commit from a repository",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object({ ...repoParams, sha: qs.string("a git ref or commit sha") }),
  query: v.object(detailQuery),
  responses: {
    ...singleResponses,
    ...validationError,
  },
  async handler(c, { params, query, repo: access }) {
    if (!isValidRefName(`refs/heads/${params.sha}`)) {
      throw new InvalidArgumentError(`no valid ref or sha: ${params.sha}`);
    }
    const view = await c.get("services").commits.get(access.repo, params.sha, detailOptions(query));
    return c.json(commitsJson(c, access, view, query)[0]);
  },
});

export const commitRoutes = [repoGetAllCommits, repoGetCommitByRef, repoGetSingleCommit];
