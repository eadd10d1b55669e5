import { createHash } from "node:crypto";
import { type api, formatTime, type Settings, type User } from "@kiln/domain";
import type * as v from "valibot";

/**
 * A user as Forgejo's API shows it to `viewer` (services/convert.ToUser): the e-mail address
 * only to signed-in viewers and only when not kept private (site admins and the user always see
 * it); admin-only fields only to site admins and the user themselves.
 */
export function toApiUser(
  user: User,
  viewer: User | null,
  settings: Settings,
): v.InferOutput<typeof api.User> {
  const signed = viewer !== null;
  const authed = viewer !== null && (viewer.isAdmin || viewer.id === user.id);
  const root = settings.server.rootUrl;
  return {
    id: user.id,
    login: user.name,
    login_name: authed ? user.loginName : "",
    source_id: authed ? user.loginSource : 0,
    full_name: user.fullName,
    email: signed && (!user.keepEmailPrivate || authed) ? user.email : placeholderEmail(user, settings),
    avatar_url: avatarUrl(user, settings),
    html_url: `${root}${user.name}`,
    language: authed ? user.language : "",
    is_admin: authed ? user.isAdmin : false,
    last_login: formatTime(authed && user.lastLoginAt ? user.lastLoginAt : new Date(0)),
    created: formatTime(user.createdAt),
    restricted: user.isRestricted,
    active: authed ? user.isActive : false,
    prohibit_login: authed ? user.prohibitLogin : false,
    location: user.location,
    pronouns: !user.hidePronouns || authed ? user.pronouns : "",
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

/** The avatar URL Forgejo would give: `<root>/avatars/<md5 of the e-mail>`. */
export function avatarUrl(user: User, settings: Settings): string {
  return `${settings.server.rootUrl}avatars/${avatarHash(user.email.toLowerCase() || user.lowerName)}`;
}

/** Recently computed avatar hashes: lists show the same owners over and over. */
const avatarHashes = new Map<string, string>();

function avatarHash(key: string): string {
  let hash = avatarHashes.get(key);
  if (hash === undefined) {
    hash = createHash("md5").update(key).digest("hex");
    if (avatarHashes.size >= 10_000) avatarHashes.clear();
    avatarHashes.set(key, hash);
  }
  return hash;
}
