export {
  AccessService,
  type OrgAccess,
  type OrgNeed,
  orgNotFound,
  type RepoAccess,
} from "./access-service.js";
export { type Actor, ANONYMOUS, actorFor, actorOf, viewerOf } from "./actor.js";
export { checkNeed, type RepoNeed } from "./repo-need.js";
