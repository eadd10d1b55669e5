import { type api, REPO_UNITS, type Settings, type Team, type User } from "@kiln/domain";
import type * as v from "valibot";
import { avatarUrl } from "./user.js";

/** An organization as Forgejo's `Organization`, plus Kiln's `repos_count` for the requesting user. */
export function toApiOrg(
  org: User,
  reposCount: number,
  settings: Settings,
): v.InferOutput<typeof api.Organization> {
  return {
    id: org.id,
    name: org.name,
    username: org.name,
    full_name: org.fullName,
    email: org.email,
    avatar_url: avatarUrl(org, settings),
    description: org.description,
    website: org.website,
    location: org.location,
    visibility: org.visibility,
    repo_admin_change_team_access: org.repoAdminChangeTeamAccess,
    repos_count: reposCount,
  };
}

/** A team as Forgejo's `Team`: its mode, the units it has access to and the mode per unit. */
export function toApiTeam(
  team: Team,
  org: v.InferOutput<typeof api.Organization> | null,
): v.InferOutput<typeof api.Team> {
  const unitsMap: Record<string, string> = {};
  for (const unit of REPO_UNITS) {
    const mode = team.units[unit];
    if (mode && mode !== "none") unitsMap[unit] = mode;
  }
  return {
    id: team.id,
    name: team.name,
    description: team.description,
    organization: org,
    includes_all_repositories: team.includesAllRepositories,
    permission: team.accessMode,
    units: Object.keys(unitsMap),
    units_map: unitsMap,
    can_create_org_repo: team.canCreateOrgRepo,
  };
}
