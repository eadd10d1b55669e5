import { hookScope } from "@kiln/service";
import * as v from "valibot";
import { qs } from "../../query.js";
import { hookRoutes } from "../shared/hook-routes.js";

/**
 * Forgejo's routers/api/v1/admin/hooks.go: the site's system hooks (every repository's events)
 * and default hooks (applied to repositories created after them), for site administrators.
 */
export const adminHookRoutes = hookRoutes({
  name: "admin",
  path: "/admin/hooks",
  tags: ["admin"],
  access: "site-admin",
  scopes: ["admin"],
  params: {},
  summaries: { list: "List system's webhooks" },
  listQuery: {
    type: v.optional(
      qs.enum(["system", "default", "all"], "system, default or both kinds of webhooks (default: all)"),
    ),
  },
  scope: ({ query }, forList) => (forList ? hookScope.admin(query.type ?? "all") : hookScope.admin()),
  home: () => "admin",
});
