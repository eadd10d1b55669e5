import { api } from "@kiln/domain";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { forbidden, notFound } from "../responses.js";
import { apiThreads, resetContent } from "./shared.js";

/**
 * Forgejo's routers/api/v1/notify/threads.go: one thread by id. Another user's thread is 403
 * (site admins may read it), one of a repository the caller can no longer see is 404.
 */

const idParams = v.object({ id: qs.int("id of notification thread", { min: 1 }) });
const thread = { description: "NotificationThread", schema: api.NotificationThread };

export const notifyGetThread = route({
  method: "get",
  path: "/notifications/threads/{id}",
  operationId: "notifyGetThread",
  tags: ["notification"],
  summary: "Get notification thread by ID",
  access: "signed-in",
  scopes: ["notification"],
  params: idParams,
  responses: { 200: thread, ...forbidden, ...notFound },
  async handler(c, { params }) {
    const row = await c.get("services").notifications.thread(c.get("actor"), params.id);
    const [json] = await apiThreads(c, [row]);
    return c.json(json);
  },
});

export const notifyReadThread = route({
  method: "patch",
  path: "/notifications/threads/{id}",
  operationId: "notifyReadThread",
  tags: ["notification"],
  summary: "Mark notification thread as read by ID",
  access: "signed-in",
  scopes: ["notification"],
  params: idParams,
  query: v.object({ "to-status": v.optional(qs.string("Status to mark notifications as")) }),
  responses: { 205: thread, ...forbidden, ...notFound },
  async handler(c, { params, query }) {
    const row = await c
      .get("services")
      .notifications.markThread(c.get("actor"), params.id, query["to-status"]);
    const [json] = await apiThreads(c, [row]);
    return resetContent(json);
  },
});

export const notifyThreadRoutes = [notifyGetThread, notifyReadThread];
