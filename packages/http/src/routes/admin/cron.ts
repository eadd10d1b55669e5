import { api, NotFoundError } from "@kiln/domain";
import * as v from "valibot";
import { pagedJson } from "../../pagination.js";
import { pageQuery, qs } from "../../query.js";
import { route } from "../../route.js";
import { empty, forbidden, notFound } from "../responses.js";

/** Forgejo's routers/api/v1/admin/cron.go: the instance's periodic tasks. */

/** Go's zero time: what Forgejo shows for a run that has not happened or is not scheduled. */
const ZERO_TIME = "0001-01-01T00:00:00Z";

export const adminCronList = route({
  method: "get",
  path: "/admin/cron",
  operationId: "adminCronList",
  tags: ["admin"],
  summary: "List cron tasks",
  access: "site-admin",
  scopes: ["admin"],
  query: v.object({ ...pageQuery }),
  responses: { 200: { description: "CronList", schema: v.array(api.Cron) }, ...forbidden },
  handler(c, { query }) {
    const tasks = c.get("services").cron.list();
    return pagedJson(
      c,
      query,
      async (page) => ({
        items: tasks.slice((page.page - 1) * page.limit, page.page * page.limit),
        total: tasks.length,
      }),
      (t) => ({
        name: t.name,
        schedule: t.schedule,
        next: t.next?.toISOString() ?? ZERO_TIME,
        prev: t.prev?.toISOString() ?? ZERO_TIME,
        exec_times: t.execTimes,
      }),
    );
  },
});

export const adminCronRun = route({
  method: "post",
  path: "/admin/cron/{task}",
  operationId: "adminCronRun",
  tags: ["admin"],
  summary: "Run cron task (Kiln answers once the run has ended, as Forgejo does)",
  access: "site-admin",
  scopes: ["admin"],
  params: v.object({ task: qs.string("task to run") }),
  responses: { ...empty, ...forbidden, ...notFound },
  async handler(c, { params }) {
    const running = c.get("services").cron.run(params.task);
    if (!running) throw new NotFoundError(`cron task does not exist [name: ${params.task}]`);
    await running;
    return c.body(null, 204);
  },
});

export const adminCronRoutes = [adminCronList, adminCronRun];
