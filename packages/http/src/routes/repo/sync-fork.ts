import { api } from "@kiln/domain";
import type { SyncForkInfo } from "@kiln/service";
import * as v from "valibot";
import { requirePrincipal } from "../../auth.js";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, notFound, repoArchived } from "../responses.js";
import { repoParams } from "./context.js";

/**
 * Forgejo's routers/api/v1/repo/sync_fork.go. Every call asks again whether the caller may read
 * the parent: one who may not (any more) sees a parent without the branch.
 */

const badRequest = { 400: { description: "APIError", schema: api.APIError } } as const;
const infoResponse = { 200: { description: "SyncForkInfo", schema: api.SyncForkInfo } } as const;
const branchParams = v.object({ ...repoParams, branch: qs.string("The branch") });

function toApiSyncForkInfo(info: SyncForkInfo): v.InferOutput<typeof api.SyncForkInfo> {
  return {
    allowed: info.allowed,
    commits_behind: info.commitsBehind,
    base_commit: info.baseCommit,
    fork_commit: info.forkCommit,
  };
}

export const repoSyncForkDefaultInfo = route({
  method: "get",
  path: "/repos/{owner}/{repo}/sync_fork",
  operationId: "repoSyncForkDefaultInfo",
  tags: ["repository"],
  summary: "Gets information about syncing the fork default branch with the base branch",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { ...infoResponse, ...badRequest, ...notFound },
  async handler(c, { repo }) {
    const info = await c.get("services").forks.info(repo, repo.repo.defaultBranch);
    return c.json(toApiSyncForkInfo(info));
  },
});

export const repoSyncForkDefault = route({
  method: "post",
  path: "/repos/{owner}/{repo}/sync_fork",
  operationId: "repoSyncForkDefault",
  tags: ["repository"],
  summary: "Syncs the default branch of a fork with the base branch",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  notArchived: true,
  scopes: ["repository"],
  params: v.object(repoParams),
  responses: { ...empty, ...badRequest, ...notFound, ...repoArchived },
  async handler(c, { principal, repo }) {
    requirePrincipal(principal);
    await c.get("services").forks.sync(repo, repo.repo.defaultBranch);
    return c.body(null, 204);
  },
});

export const repoSyncForkBranchInfo = route({
  method: "get",
  path: "/repos/{owner}/{repo}/sync_fork/{branch*}",
  operationId: "repoSyncForkBranchInfo",
  tags: ["repository"],
  summary: "Gets information about syncing a fork branch with the base branch",
  access: "public",
  repo: { read: "repo.code" },
  scopes: ["repository"],
  params: branchParams,
  responses: { ...infoResponse, ...badRequest, ...notFound },
  async handler(c, { params, repo }) {
    const info = await c.get("services").forks.info(repo, params.branch);
    return c.json(toApiSyncForkInfo(info));
  },
});

export const repoSyncForkBranch = route({
  method: "post",
  path: "/repos/{owner}/{repo}/sync_fork/{branch*}",
  operationId: "repoSyncForkBranch",
  tags: ["repository"],
  summary: "Syncs a fork branch with the base branch",
  access: "signed-in",
  repo: { write: ["repo.code"] },
  notArchived: true,
  scopes: ["repository"],
  params: branchParams,
  responses: { ...empty, ...badRequest, ...notFound, ...repoArchived },
  async handler(c, { params, principal, repo }) {
    requirePrincipal(principal);
    await c.get("services").forks.sync(repo, params.branch);
    return c.body(null, 204);
  },
});

export const syncForkRoutes = [
  repoSyncForkDefaultInfo,
  repoSyncForkDefault,
  repoSyncForkBranchInfo,
  repoSyncForkBranch,
];
