import type { PermissionService } from "../access/permission-service.js";
import type { ServiceContext } from "../context.js";
import { OrgService } from "./org-service.js";
import { TeamService } from "./team-service.js";

/** Organizations and their teams. */
export interface OrgsArea {
  readonly orgs: OrgService;
  readonly teams: TeamService;
}

/** Builds the organizations area. */
export function orgsArea(ctx: ServiceContext, permissions: PermissionService): OrgsArea {
  return { orgs: new OrgService(ctx, permissions), teams: new TeamService(ctx, permissions) };
}
