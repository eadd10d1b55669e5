export { canSeeAccount, computeOrgPermission, type OrgPermission } from "./org-permission.js";
export { PermissionService } from "./permission-service.js";
export {
  canRead,
  canWrite,
  computeRepoPermission,
  hasAccess,
  isRepoAdmin,
  NO_PERMISSION,
  type PermissionFacts,
  type RepoPermission,
  type TeamGrant,
} from "./repo-permission.js";
