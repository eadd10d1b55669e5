export { type AvatarImage, checkAvatarImage } from "./avatar-image.js";
export {
  type AvatarContent,
  type AvatarKind,
  AvatarService,
  accountAvatarHash,
  repoAvatarHash,
} from "./avatar-service.js";
export { identiconPng } from "./identicon.js";
