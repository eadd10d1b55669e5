import { hookScope } from "@kiln/service";
import { requirePrincipal } from "../../auth.js";
import { hookRoutes } from "../shared/hook-routes.js";

/** Forgejo's routers/api/v1/user/hook.go: the signed-in user's own webhooks. */
export const userHookRoutes = hookRoutes({
  name: "user",
  path: "/user/hooks",
  tags: ["user"],
  access: "signed-in",
  scopes: ["user"],
  params: {},
  summaries: { list: "List the authenticated user's webhooks" },
  scope: ({ principal }) => hookScope.owner(requirePrincipal(principal).user),
  home: ({ principal }) => requirePrincipal(principal).user.name,
});
