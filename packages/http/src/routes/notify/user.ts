import { api } from "@kiln/domain";
import * as v from "valibot";
import { pageRequest, setPagingHeaders } from "../../pagination.js";
import { route } from "../../route.js";
import { validationError } from "../responses.js";
import {
  apiThreads,
  listQuery,
  markChoices,
  markQuery,
  resetContent,
  threadList,
  threadQuery,
} from "./shared.js";

/** Forgejo's routers/api/v1/notify/user.go and notifications.go: the caller's notification threads. */

export const notifyGetList = route({
  method: "get",
  path: "/notifications",
  operationId: "notifyGetList",
  tags: ["notification"],
  summary: "List users's notification threads",
  access: "signed-in",
  scopes: ["notification"],
  query: v.object(listQuery),
  responses: { 200: threadList, ...validationError },
  async handler(c, { query }) {
    const page = pageRequest(query, c.get("settings").api);
    const list = await c.get("services").notifications.list(c.get("actor"), threadQuery(query), page);
    setPagingHeaders(c, page, list.total);
    return c.json(await apiThreads(c, list.items));
  },
});

export const notifyReadList = route({
  method: "put",
  path: "/notifications",
  operationId: "notifyReadList",
  tags: ["notification"],
  summary: "Mark notification threads as read, pinned or unread",
  access: "signed-in",
  scopes: ["notification"],
  query: v.object(markQuery),
  responses: {
    205: threadList,
    400: { description: "APIError", schema: api.APIError },
  },
  async handler(c, { query }) {
    const changed = await c.get("services").notifications.mark(c.get("actor"), markChoices(query));
    return resetContent(await apiThreads(c, changed));
  },
});

export const notifyNewAvailable = route({
  method: "get",
  path: "/notifications/new",
  operationId: "notifyNewAvailable",
  tags: ["notification"],
  summary: "Check if unread notifications exist",
  access: "signed-in",
  scopes: ["notification"],
  responses: { 200: { description: "Number of unread notifications", schema: api.NotificationCount } },
  async handler(c) {
    return c.json({ new: await c.get("services").notifications.unreadCount(c.get("actor")) });
  },
});

export const notifyUserRoutes = [notifyGetList, notifyReadList, notifyNewAvailable];
