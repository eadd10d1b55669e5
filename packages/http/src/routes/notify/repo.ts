import { api } from "@kiln/domain";
import * as v from "valibot";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { route } from "../../route.js";
import { repoParams } from "../repo/context.js";
import { notFound, validationError } from "../responses.js";
import {
  apiThreads,
  listQuery,
  markChoices,
  markQuery,
  resetContent,
  threadList,
  threadQuery,
} from "./shared.js";

/** Forgejo's routers/api/v1/notify/repo.go: the caller's notification threads of one repository. */

export const notifyGetRepoList = route({
  method: "get",
  path: "/repos/{owner}/{repo}/notifications",
  operationId: "notifyGetRepoList",
  tags: ["notification"],
  summary: "List users's notification threads on a specific repo",
  access: "signed-in",
  repo: "read",
  scopes: ["notification"],
  params: v.object(repoParams),
  query: v.object(listQuery),
  responses: { 200: threadList, ...notFound, ...validationError },
  async handler(c, { query, repo }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c
      .get("services")
      .notifications.list(c.get("actor"), { ...threadQuery(query), repoId: repo.repo.id }, page);
    setPagingHeaders(c, page, list.total);
    return c.json(await apiThreads(c, list.items));
  },
});

export const notifyReadRepoList = route({
  method: "put",
  path: "/repos/{owner}/{repo}/notifications",
  operationId: "notifyReadRepoList",
  tags: ["notification"],
  summary: "Mark notification threads as read, pinned or unread on a specific repo",
  access: "signed-in",
  repo: "read",
  readersMayWrite: true,
  scopes: ["notification"],
  params: v.object(repoParams),
  query: v.object(markQuery),
  responses: {
    205: { description: "NotificationThreadListWithoutPagination", schema: v.array(api.NotificationThread) },
    400: { description: "APIError", schema: api.APIError },
    ...notFound,
  },
  async handler(c, { query, repo }) {
    const changed = await c
      .get("services")
      .notifications.mark(c.get("actor"), { ...markChoices(query), repoId: repo.repo.id });
    return resetContent(await apiThreads(c, changed));
  },
});

export const notifyRepoRoutes = [notifyGetRepoList, notifyReadRepoList];
