import { type api, formatTime, type Repository, type Settings, type User } from "@kiln/domain";
import type * as v from "valibot";
import { type AccountSight, accountSight } from "../access/account-rules.js";
import { accountAvatarHash, repoAvatarHash } from "../avatars/avatar-service.js";

/** What an anonymous reader sees of any account: where Forgejo converts a user with no viewer. */
export const anonymousSight: AccountSight = accountSight(null);

/**
 * A user as Forgejo's API shows it (services/convert.ToUser), with the fields `sight` lets its
 * reader see: the caller decides them through the access module (`accountSight`).
 */
export function toApiUser(
  user: User,
  sight: AccountSight,
  settings: Settings,
): v.InferOutput<typeof api.User> {
  const sees = sight(user);
  const { privateFields } = sees;
  const root = settings.server.rootUrl;
  return {
    id: user.id,
    login: user.name,
    login_name: privateFields ? user.loginName : "",
    source_id: privateFields ? user.loginSource : 0,
    full_name: user.fullName,
    email: sees.email ? user.email : placeholderEmail(user, settings),
    avatar_url: avatarUrl(user, settings),
    html_url: `${root}${user.name}`,
    language: privateFields ? user.language : "",
    is_admin: privateFields ? user.isAdmin : false,
    last_login: formatTime(privateFields && user.lastLoginAt ? user.lastLoginAt : new Date(0)),
    created: formatTime(user.createdAt),
    restricted: user.isRestricted,
    active: privateFields ? user.isActive : false,
    prohibit_login: privateFields ? user.prohibitLogin : false,
    location: user.location,
    pronouns: sees.pronouns ? user.pronouns : "",
    website: user.website,
    description: user.description,
    visibility: user.visibility,
    followers_count: user.numFollowers,
    following_count: user.numFollowing,
    starred_repos_count: user.numStars,
    username: user.name,
  };
}

/** Forgejo's stand-in address for hidden e-mails: `<name>@noreply.<host>`. */
export function placeholderEmail(user: User, settings: Settings): string {
  return `${user.lowerName}@noreply.${new URL(settings.server.rootUrl).hostname}`;
}

/**
 * The avatar URL of a user or organization, served by Kiln (src/avatars/serve.ts):
 * `<root>avatars/<hash>`, the uploaded avatar's hash or, without one, the hash of its identicon.
 */
export function avatarUrl(user: User, settings: Settings): string {
  return `${settings.server.rootUrl}avatars/${user.avatar || identiconHash("user", user.id)}`;
}

/**
 * The avatar URL of a repository (Forgejo's Repository.AvatarLink): `<root>repo-avatars/<hash>`
 * of its upload; without one, what `[picture] REPOSITORY_AVATAR_FALLBACK` says: `""` (none), its
 * identicon's (random) or the fallback image (image).
 */
export function repoAvatarUrl(repo: Repository, settings: Settings): string {
  if (repo.avatar) return `${settings.server.rootUrl}repo-avatars/${repo.avatar}`;
  switch (settings.picture.repositoryAvatarFallback) {
    case "random":
      return `${settings.server.rootUrl}repo-avatars/${identiconHash("repo", repo.id)}`;
    case "image":
      return absoluteLink(settings.picture.repositoryAvatarFallbackImage, settings.server.rootUrl);
    default:
      return "";
  }
}

/**
 * Forgejo's AvatarLink: a link rooted at `/` (with or without the instance's sub-path) is made
 * absolute under ROOT_URL; anything else (a full URL) is answered as written.
 */
function absoluteLink(link: string, rootUrl: string): string {
  if (!link.startsWith("/") || link.startsWith("//")) return link;
  const subPath = new URL(rootUrl).pathname.replace(/\/+$/, "");
  const rest = subPath && link.startsWith(`${subPath}/`) ? link.slice(subPath.length) : link;
  return `${rootUrl}${rest.slice(1)}`;
}

/** Recently computed identicon hashes: lists show the same owners over and over. */
const identiconHashes = new Map<string, string>();

function identiconHash(kind: "user" | "repo", id: number): string {
  const key = `${kind}-${id}`;
  let hash = identiconHashes.get(key);
  if (hash === undefined) {
    hash = kind === "user" ? accountAvatarHash({ id }) : repoAvatarHash({ id });
    if (identiconHashes.size >= 10_000) identiconHashes.clear();
    identiconHashes.set(key, hash);
  }
  return hash;
}
