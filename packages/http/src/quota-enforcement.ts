import type { SubjectSpelling } from "@kiln/quota";
import type { QuotaOwner } from "@kiln/service";
import { requirePrincipal } from "./auth.js";
import type { AppContext } from "./env.js";
import type { AnyRoute } from "./route.js";

/**
 * Runs a route's quota enforcement (its `quota` option) for the owner it names, after access
 * checks and input validation and before the handler, in Forgejo's order (401/403/404/422 win
 * over 413).
 */
export async function enforceRouteQuota(
  route: AnyRoute,
  c: AppContext,
  input: Parameters<AnyRoute["handler"]>[1],
): Promise<void> {
  if (!route.quota) return;
  const owner: QuotaOwner = route.quota.owner
    ? await route.quota.owner(c, input)
    : requirePrincipal(input.principal).user;
  await enforceQuota(c, owner, route.quota.subject);
}

/**
 * Forgejo's in-handler `ctx.CheckQuota`, for writes whose owner is known only inside the handler
 * (forks, migrations, generated repositories, transfers). Does nothing when quota is disabled;
 * otherwise asks the service's enforcement hook, which never rejects while enforcement is off.
 */
export async function enforceQuota(
  c: AppContext,
  owner: QuotaOwner,
  subject: SubjectSpelling,
): Promise<void> {
  if (!c.get("settings").quota.enabled) return;
  await c.get("services").quota.enforce({ id: owner.id, name: owner.name }, subject);
}
