import { PermissionDeniedError } from "@kiln/domain";
import type { ActionScope } from "@kiln/storage";
import type { Actor } from "../access/actor.js";

/** Where Actions settings live: a repository, or an owner (a user or an organization). */
export const actionScope = {
  repo: (repo: { readonly id: number }): ActionScope => ({ repoId: repo.id }),
  owner: (owner: { readonly id: number }): ActionScope => ({ ownerId: owner.id }),
};

/**
 * Secrets, variables and runner tokens are never public data, so a `public-only` token reaches
 * none of them, not even those of a public repository or of its own account (the route already
 * resolved the repository or organization through the access module, which hides private ones).
 */
export function refusePublicOnly(actor: Actor): void {
  if (actor.publicOnly) throw new PermissionDeniedError("token scope is limited to public resources");
}
