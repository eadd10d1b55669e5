import { api } from "@kiln/domain";
import * as v from "valibot";
import { qs } from "../../query.js";
import { route } from "../../route.js";
import { notFound } from "../responses.js";

/** Forgejo's routers/api/v1/user/user.go GetUserHeatmapData (beside user.ts). */
export const userGetHeatmapData = route({
  method: "get",
  path: "/users/{username}/heatmap",
  operationId: "userGetHeatmapData",
  tags: ["user"],
  summary: "Get a user's heatmap",
  access: "public",
  scopes: ["user"],
  params: v.object({ username: qs.string("username of user to get") }),
  responses: { 200: { description: "UserHeatmapData", schema: v.array(api.UserHeatmapData) }, ...notFound },
  async handler(c, { params }) {
    const actor = c.get("actor");
    const services = c.get("services");
    const user = await services.access.account(actor, params.username);
    return c.json(await services.feeds.heatmap(actor, user));
  },
});

export const heatmapRoutes = [userGetHeatmapData];
