export {
  AccessService,
  meetsOrgNeed,
  type OrgAccess,
  type OrgNeed,
  orgNotFound,
  type RepoAccess,
  type TeamAccess,
} from "./access-service.js";
export {
  type AccountFieldsView,
  type AccountSight,
  accountFieldsFor,
  accountSight,
  isSelfOrAdmin,
  isSiteAdmin,
  maySudo,
  requireSelfOrAdmin,
  requireSiteAdmin,
  seesKeyDetails,
} from "./account-rules.js";
export {
  type Actor,
  ANONYMOUS,
  actorFor,
  actorOf,
  publicOnlyViewer,
  readingAs,
  seeAllViewer,
  signedInViewer,
  viewerOf,
} from "./actor.js";
export { mayBeWhitelisted, mayMerge, mayPush, type PusherFacts } from "./branch-rules.js";
export {
  managesTimes,
  mayBeAssigned,
  mayChangeCommentAttachments,
  mayChangeIssueAttachments,
  mayChangeSubscriptionOf,
  mayDeleteTime,
  mayEditComment,
  mayEditIssue,
  maySetUpdateTime,
  mayTalkOn,
  mayTrackTime,
  mayTrackTimeForOthers,
  readableIssueKinds,
  readsIssues,
  referenceRights,
  writesIssues,
} from "./issue-rules.js";
export { mayCancelAutoMerge, mayDeleteHeadBranch, mayForceMerge } from "./merge-rules.js";
export { canSeeAccount, computeOrgPermission, type OrgPermission, seesOrgInside } from "./org-permission.js";
export {
  bypassesRepoLimit,
  mayCreateOrg,
  mayCreateRepoFor,
  mayForkInto,
  mayGenerateFor,
  mayImportLocal,
} from "./owner-rules.js";
export { heldToPackageLimits, mayWritePackages, orgPackageMode } from "./package-rules.js";
export { PermissionService } from "./permission-service.js";
export {
  allowsMaintainerEditsByDefault,
  mayDeleteReview,
  mayDismissReview,
  mayGrantMaintainerEdits,
  mayReview,
  seesPendingReview,
  writesCode,
} from "./pull-rules.js";
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
export {
  administersRepo,
  mayQueryPermissionOf,
  type RepoPermissionView,
  readsUnit,
  repoPermissionView,
  requirePermissionQuery,
  seesBranchRuleNames,
  seesDeployKeyRepository,
  writesUnit,
} from "./repo-rules.js";
