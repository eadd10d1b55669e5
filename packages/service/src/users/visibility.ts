import type { User } from "@kiln/domain";
import { actorFor, viewerOf } from "../access/actor.js";
import { canSeeAccount } from "../access/org-permission.js";

/** Whether `viewer` (acting with every scope) may see the individual user `target` at all. */
export function canSeeUser(viewer: User | null, target: User): boolean {
  return canSeeAccount(viewerOf(actorFor(viewer)), target, false);
}
