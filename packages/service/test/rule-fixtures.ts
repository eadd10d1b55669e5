import type { AccessMode, User } from "@kiln/domain";
import { REPO_UNITS, type RepoUnit } from "@kiln/domain";
import type { RepoPermission } from "../src/access/repo-permission.js";

/** A permission of `mode` on every unit, but for the `units` given otherwise. */
export function permission(
  mode: AccessMode,
  units: Partial<Record<RepoUnit, AccessMode>> = {},
): RepoPermission {
  const all = Object.fromEntries(REPO_UNITS.map((u) => [u, units[u] ?? mode])) as Record<
    RepoUnit,
    AccessMode
  >;
  return { mode, units: all };
}

/** A user as the rules see one: an id, and whether a site admin. */
export const user = (id: number, isAdmin = false) => ({ id, isAdmin }) as User;

/** A site admin with no standing of their own. */
export const siteAdmin = user(9, true);

/** A caller of the rules: `viewer` (user 2 unless told) with a permission of `mode`. */
export const caller = (
  mode: AccessMode,
  viewer: User | null = user(2),
  units: Partial<Record<RepoUnit, AccessMode>> = {},
) => ({ permission: permission(mode, units), viewer });
