export {
  AccessService,
  meetsOrgNeed,
  type OrgAccess,
  type OrgNeed,
  orgNotFound,
  type RepoAccess,
  type TeamAccess,
} from "./access-service.js";
export { type Actor, ANONYMOUS, actorFor, actorOf, signedInViewer, viewerOf } from "./actor.js";
export { canSeeAccount, computeOrgPermission, type OrgPermission } from "./org-permission.js";
export { PermissionService } from "./permission-service.js";
export { checkNeed, type RepoNeed } from "./repo-need.js";
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
