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
export { checkNeed, type RepoNeed } from "./repo-need.js";
