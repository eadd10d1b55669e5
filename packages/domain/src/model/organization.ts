import type { AccessMode } from "./access-mode.js";
import type { RepoUnit } from "./repo-unit.js";

/** The name of the team every organization has from its creation; it holds the owners. */
export const OWNERS_TEAM = "Owners";

/** A team of an organization. `units` gives the access per repository unit. */
export interface Team {
  readonly id: number;
  readonly orgId: number;
  readonly name: string;
  readonly lowerName: string;
  readonly description: string;
  /** The team-wide mode: `owner` for Owners, `admin` for admin teams, else the mode given for `units`, or `none` with a units map. */
  readonly accessMode: AccessMode;
  readonly units: Readonly<Partial<Record<RepoUnit, AccessMode>>>;
  readonly includesAllRepositories: boolean;
  readonly canCreateOrgRepo: boolean;
}

/** Whether a team is the organization's Owners team. */
export function isOwnersTeam(team: Team): boolean {
  return team.accessMode === "owner";
}
