import * as v from "valibot";
import { ACCESS_MODES } from "../model/access-mode.js";
import { int64 } from "./primitives.js";

const visibility = () => v.picklist(["public", "limited", "private"]);

/**
 * An organization, as Forgejo's `Organization`, plus Kiln's `repos_count`: the number of its
 * repositories the requesting user can see (docs/decisions.md: "the repository count equals the number
 * of repositories accessible to the requesting user").
 */
export const Organization = v.object({
  id: int64(),
  name: v.string(),
  username: v.string(),
  full_name: v.string(),
  email: v.string(),
  avatar_url: v.string(),
  description: v.string(),
  website: v.string(),
  location: v.string(),
  visibility: v.string(),
  repo_admin_change_team_access: v.boolean(),
  repos_count: int64(),
});

/** Body of `POST /orgs`. */
export const CreateOrgOption = v.object({
  username: v.pipe(v.string(), v.maxLength(40)),
  full_name: v.optional(v.pipe(v.string(), v.maxLength(100))),
  email: v.optional(v.pipe(v.string(), v.maxLength(255))),
  description: v.optional(v.pipe(v.string(), v.maxLength(255))),
  website: v.optional(v.pipe(v.string(), v.maxLength(255))),
  location: v.optional(v.pipe(v.string(), v.maxLength(50))),
  visibility: v.optional(visibility()),
  repo_admin_change_team_access: v.optional(v.boolean()),
});

/** Body of `PATCH /orgs/{org}`. */
export const EditOrgOption = v.object({
  full_name: v.optional(v.pipe(v.string(), v.maxLength(100))),
  email: v.optional(v.pipe(v.string(), v.maxLength(255))),
  description: v.optional(v.pipe(v.string(), v.maxLength(255))),
  website: v.optional(v.pipe(v.string(), v.maxLength(255))),
  location: v.optional(v.pipe(v.string(), v.maxLength(50))),
  visibility: v.optional(visibility()),
  repo_admin_change_team_access: v.optional(v.boolean()),
});

/** What a user may do in an organization (`GET /users/{username}/orgs/{org}/permissions`). */
export const OrganizationPermissions = v.object({
  is_owner: v.boolean(),
  is_admin: v.boolean(),
  can_write: v.boolean(),
  can_read: v.boolean(),
  can_create_repository: v.boolean(),
});

/** A team, as Forgejo's `Team`. */
export const Team = v.object({
  id: int64(),
  name: v.string(),
  description: v.string(),
  organization: v.nullable(Organization),
  includes_all_repositories: v.boolean(),
  permission: v.picklist(ACCESS_MODES),
  units: v.array(v.string()),
  units_map: v.record(v.string(), v.string()),
  can_create_org_repo: v.boolean(),
});

const teamName = () => v.pipe(v.string(), v.regex(/^[\w.-]+$/, "AlphaDashDot"), v.maxLength(255));

/** Body of `POST /orgs/{org}/teams`. */
export const CreateTeamOption = v.object({
  name: teamName(),
  description: v.optional(v.pipe(v.string(), v.maxLength(255))),
  includes_all_repositories: v.optional(v.boolean()),
  permission: v.optional(v.picklist(["read", "write", "admin"])),
  units: v.optional(v.array(v.string())),
  units_map: v.optional(v.record(v.string(), v.string())),
  can_create_org_repo: v.optional(v.boolean()),
});

/** Body of `PATCH /teams/{id}`. */
export const EditTeamOption = v.object({
  name: teamName(),
  description: v.optional(v.nullable(v.pipe(v.string(), v.maxLength(255)))),
  includes_all_repositories: v.optional(v.nullable(v.boolean())),
  permission: v.optional(v.picklist(["read", "write", "admin"])),
  units: v.optional(v.array(v.string())),
  units_map: v.optional(v.record(v.string(), v.string())),
  can_create_org_repo: v.optional(v.nullable(v.boolean())),
});

/** The list returned by `GET /orgs/{org}/teams/search`. */
export const TeamSearchResults = v.object({
  ok: v.boolean(),
  data: v.array(Team),
});
