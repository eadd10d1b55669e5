import type { User, Visibility } from "@kiln/domain";

/**
 * Which account visibilities a viewer may see in lists and lookups (Forgejo's rule for
 * individual users): anonymous → public; signed-in → public and limited; site admins → all.
 * A user always sees themselves.
 */
export function visibleAccountKinds(viewer: User | null): readonly Visibility[] {
  if (!viewer) return ["public"];
  if (viewer.isAdmin) return ["public", "limited", "private"];
  return ["public", "limited"];
}

/** Whether `viewer` may see the individual user `target` at all. */
export function canSeeUser(viewer: User | null, target: User): boolean {
  if (viewer && (viewer.isAdmin || viewer.id === target.id)) return true;
  return visibleAccountKinds(viewer).includes(target.visibility);
}
