import { hookScope } from "@kiln/service";
import * as v from "valibot";
import { hookRoutes } from "../shared/hook-routes.js";

/** Forgejo's routers/api/v1/org/hook.go: an organization's webhooks, for its owners. */
export const orgHookRoutes = hookRoutes({
  name: "org",
  path: "/orgs/{org}/hooks",
  tags: ["organization"],
  access: "signed-in",
  org: "owner",
  scopes: ["organization"],
  params: { org: v.string() },
  summaries: { list: "List an organization's webhooks" },
  scope: ({ org }) => hookScope.owner(org!.org),
  home: ({ org }) => org!.org.name,
});
