import { hasScopes, type ScopeCategory, type TokenScopes, UnauthorizedError, type User } from "@kiln/domain";
import type { RepoViewer } from "@kiln/storage";
import type { Principal } from "../auth/principal.js";

/**
 * Who is acting, resolved once per request from the credential: the user (null when anonymous),
 * the token's scopes (null for a password, which carries every scope) and whether the token is
 * `public-only`, which limits it to public things even of its owner's own.
 */
export interface Actor {
  readonly user: User | null;
  readonly scopes: TokenScopes | null;
  readonly publicOnly: boolean;
}

/** An anonymous caller. */
export const ANONYMOUS: Actor = { user: null, scopes: null, publicOnly: false };

/**
 * The actor as a read of `category` outside the API sees it (a download by a link): a token
 * without read access to that category counts as anonymous, so its other scopes reach nothing of
 * this kind. A password or a session (no scopes) is unchanged.
 */
export function readingAs(actor: Actor, category: ScopeCategory): Actor {
  return actor.scopes && !hasScopes(actor.scopes, "read", [category]) ? ANONYMOUS : actor;
}

/** The actor of an authenticated principal (or anonymous). */
export function actorOf(principal: Principal | null): Actor {
  if (!principal) return ANONYMOUS;
  return {
    user: principal.user,
    scopes: principal.scopes,
    publicOnly: principal.scopes?.publicOnly ?? false,
  };
}

/** An actor for a user acting with every scope (service code, the CLI, tests). */
export function actorFor(user: User | null): Actor {
  return user ? { user, scopes: null, publicOnly: false } : ANONYMOUS;
}

/** What visibility decisions and the SQL list fragments need to know of the actor. */
export function viewerOf(actor: Actor): RepoViewer {
  const { user } = actor;
  if (!user) return null;
  return {
    id: user.id,
    isAdmin: user.isAdmin,
    isRestricted: user.isRestricted,
    publicOnly: actor.publicOnly,
  };
}

/** The viewer of a signed-in actor (routes whose access is "signed-in" have one). */
export function signedInViewer(actor: Actor): NonNullable<RepoViewer> {
  const viewer = viewerOf(actor);
  if (!viewer) throw new UnauthorizedError("token is required");
  return viewer;
}

/**
 * A user's viewer limited as a `public-only` token is: for a caller whose credential cannot be
 * told apart (the LFS transport re-resolving one), so that doubt never reveals a private thing.
 */
export function publicOnlyViewer(user: User): NonNullable<RepoViewer> {
  return { id: user.id, isAdmin: user.isAdmin, isRestricted: user.isRestricted, publicOnly: true };
}

/**
 * The viewer that sees everything (a site admin's, without a token's limits): for site-admin
 * routes that list every account, and service work that must find a thing whoever can see it.
 * `id` is the admin's, or 0 for the service itself.
 */
export function seeAllViewer(id = 0): NonNullable<RepoViewer> {
  return { id, isAdmin: true, isRestricted: false, publicOnly: false };
}
