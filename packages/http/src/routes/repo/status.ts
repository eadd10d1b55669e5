import { api } from "@kiln/domain";
import { accountSight, repoLinks, toApiCommitStatuses } from "@kiln/service";
import * as v from "valibot";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound, validationError } from "../responses.js";
import { apiRepo, repoParams } from "./context.js";

/** Forgejo's routers/api/v1/repo/status.go: statuses tools report on commits. */

const SORTS = ["oldest", "recentupdate", "leastupdate", "leastindex", "highestindex"] as const;
const listQuery = v.object({
  sort: v.optional(qs.enum(SORTS, "type of sort")),
  state: v.optional(qs.enum(api.COMMIT_STATUS_STATE_VALUES, "type of state")),
  ...pageQuery,
});
const shaParams = v.object({ ...repoParams, sha: qs.string("sha of the commit") });
const refParams = v.object({ ...repoParams, ref: qs.string("name of branch/tag/commit") });
const statusList = { 200: { description: "CommitStatusList", schema: v.array(api.CommitStatus) } };

export const repoCreateStatus = route({
  method: "post",
  path: "/repos/{owner}/{repo}/statuses/{sha}",
  operationId: "repoCreateStatus",
  tags: ["repository"],
  summary: "Create a commit status",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  scopes: ["repository"],
  params: shaParams,
  body: api.CreateStatusOption,
  responses: {
    201: { description: "CommitStatus", schema: api.CommitStatus },
    ...forbidden,
    ...notFound,
    ...validationError,
  },
  async handler(c, { params, body, repo }) {
    const view = await c.get("services").commitStatuses.create(repo, params.sha, {
      state: body.state,
      targetUrl: body.target_url,
      description: body.description,
      context: body.context,
    });
    const [status] = toApiCommitStatuses(view, repo.repo, accountSight(repo.viewer), c.get("settings"));
    return c.json(status, 201);
  },
});

export const repoListStatuses = route({
  method: "get",
  path: "/repos/{owner}/{repo}/statuses/{sha}",
  operationId: "repoListStatuses",
  tags: ["repository"],
  summary: "Get a commit's statuses",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: shaParams,
  query: listQuery,
  responses: { ...statusList, ...notFound, ...validationError },
  async handler(c, { params, query, repo }) {
    const page = pageRequest(query, c.get("settings").api);
    const view = await c.get("services").commitStatuses.list(repo, params.sha, query, page);
    setPagingHeaders(c, page, view.total);
    return c.json(toApiCommitStatuses(view, repo.repo, accountSight(repo.viewer), c.get("settings")));
  },
});

export const repoListStatusesByRef = route({
  method: "get",
  path: "/repos/{owner}/{repo}/commits/{ref}/statuses",
  operationId: "repoListStatusesByRef",
  tags: ["repository"],
  summary: "Get a commit's statuses, by branch/tag/commit reference",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: refParams,
  query: listQuery,
  responses: { ...statusList, ...notFound, ...validationError },
  async handler(c, { params, query, repo }) {
    const page = pageRequest(query, c.get("settings").api);
    const view = await c.get("services").commitStatuses.listByRef(repo, params.ref, query, page);
    setPagingHeaders(c, page, view.total);
    return c.json(toApiCommitStatuses(view, repo.repo, accountSight(repo.viewer), c.get("settings")));
  },
});

export const repoGetCombinedStatusByRef = route({
  method: "get",
  path: "/repos/{owner}/{repo}/commits/{ref}/status",
  operationId: "repoGetCombinedStatusByRef",
  tags: ["repository"],
  summary: "Get a commit's combined status, by branch/tag/commit reference",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: refParams,
  query: v.object(pageQuery),
  responses: {
    200: { description: "CombinedStatus", schema: api.CombinedStatus },
    ...notFound,
  },
  async handler(c, { params, query, repo }) {
    const page = pageRequest(query, c.get("settings").api);
    const view = await c.get("services").commitStatuses.combined(repo, params.ref, page);
    if (view.state === undefined) {
      // Forgejo answers its zero value for a commit without statuses.
      return c.json({
        state: "",
        sha: "",
        total_count: 0,
        statuses: null,
        repository: null,
        commit_url: "",
        url: "",
      });
    }
    setPagingHeaders(c, page, view.total);
    const links = repoLinks(repo.repo, c.get("settings"));
    return c.json({
      state: view.state,
      sha: view.sha,
      total_count: view.total,
      statuses: toApiCommitStatuses(view, repo.repo, accountSight(repo.viewer), c.get("settings")),
      repository: await apiRepo(c, repo.repo, repo),
      commit_url: `${links.api}/commits/${view.sha}`,
      url: `${links.api}/commits/${view.sha}/status`,
    });
  },
});

export const statusRoutes = [
  repoCreateStatus,
  repoListStatuses,
  repoListStatusesByRef,
  repoGetCombinedStatusByRef,
];
