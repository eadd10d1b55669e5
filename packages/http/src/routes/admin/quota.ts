import { api } from "@kiln/domain";
import { toApiQuotaInfo } from "@kiln/service";
import * as v from "valibot";
import { route } from "../../route.js";
import { forbidden, notFound } from "../responses.js";
import { quotaEnabled } from "../shared/quota.js";

/** Forgejo's routers/api/v1/admin/quota.go: any user's or organization's quota, with names. */

export const adminGetUserQuota = route({
  method: "get",
  path: "/admin/users/{username}/quota",
  operationId: "adminGetUserQuota",
  tags: ["admin"],
  summary: "Get the user's quota info",
  access: "site-admin",
  scopes: ["admin"],
  enabled: quotaEnabled,
  params: v.object({ username: v.string() }),
  responses: {
    200: { description: "QuotaInfo", schema: api.QuotaInfo },
    ...forbidden,
    ...notFound,
  },
  async handler(c, { params }) {
    const owner = await c.get("services").users.getByName(params.username);
    return c.json(toApiQuotaInfo(await c.get("services").quota.info(owner.id), true));
  },
});

export const adminQuotaRoutes = [adminGetUserQuota];
