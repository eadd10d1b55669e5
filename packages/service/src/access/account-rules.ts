import { PermissionDeniedError, type User } from "@kiln/domain";

/** The parts of a user that account rules look at. */
type Someone = Pick<User, "id" | "isAdmin">;

/**
 * Whether `viewer` is the account itself or a site admin (Forgejo's reqSelfOrAdmin): who may manage
 * an account's tokens, see its keys' owner details, its private fields, all its memberships and
 * its private feed.
 */
export function isSelfOrAdmin(viewer: Someone | null, account: { readonly id: number }): boolean {
  return viewer !== null && (viewer.isAdmin || viewer.id === account.id);
}

/** Whether `user` may act as another user with `?sudo=` / `Sudo:` (site admins only, as in Forgejo). */
export function maySudo(user: Pick<User, "isAdmin"> | null | undefined): boolean {
  return user?.isAdmin === true;
}

/** Whether `user` may use a route whose access is `site-admin` (Forgejo's reqSiteAdmin). */
export function isSiteAdmin(user: Pick<User, "isAdmin"> | null | undefined): boolean {
  return user?.isAdmin === true;
}

/** Throws Forgejo's 403 unless `user` is a site admin (routes whose access is `site-admin`). */
export function requireSiteAdmin(user: Pick<User, "isAdmin"> | null | undefined): void {
  if (!isSiteAdmin(user)) throw new PermissionDeniedError("user should be the site admin");
}

/** Throws Forgejo's 403 unless `doer` is `target` itself or a site admin. */
export function requireSelfOrAdmin(doer: Someone, target: { readonly id: number }): void {
  if (!isSelfOrAdmin(doer, target)) {
    throw new PermissionDeniedError("doer should be the site admin or be same as the contextUser");
  }
}

/** Throws Forgejo's 403 unless the notification thread of `ownerId` is `viewer`'s own (nobody, admins included, changes another's). */
export function requireOwnThread(viewer: Someone, ownerId: number): void {
  if (ownerId !== viewer.id) {
    throw new PermissionDeniedError(`Can't change notification of another user: ${ownerId}, ${viewer.id}`);
  }
}

/**
 * Whether an SSH key shows its owner's details and its type to `viewer` (Forgejo's ToPublicKey
 * with `apiUser`): to the key's owner and site admins; a deploy key has no owner, so only admins.
 */
export function seesKeyDetails(viewer: Someone | null, key: { readonly ownerId: number | null }): boolean {
  if (key.ownerId === null) return viewer?.isAdmin === true;
  return isSelfOrAdmin(viewer, { id: key.ownerId });
}

/** Which of an account's fields a viewer may see: what {@link accountFieldsFor} decides. */
export interface AccountFieldsView {
  /** The admin-only fields: login name and source, language, `is_admin`, activity and login state. */
  readonly privateFields: boolean;
  /** The real e-mail address (otherwise a placeholder). */
  readonly email: boolean;
  /** The pronouns, which a user may hide. */
  readonly pronouns: boolean;
}

/**
 * What `viewer` may see of `account` (Forgejo's services/convert.ToUser): the account itself and
 * site admins see everything; other signed-in viewers see the e-mail address unless it is kept
 * private; anonymous viewers never see it; hidden pronouns show only to the account and admins.
 */
export function accountFieldsFor(
  viewer: Someone | null,
  account: Pick<User, "id" | "keepEmailPrivate" | "hidePronouns">,
): AccountFieldsView {
  const self = isSelfOrAdmin(viewer, account);
  return {
    privateFields: self,
    email: viewer !== null && (self || !account.keepEmailPrivate),
    pronouns: self || !account.hidePronouns,
  };
}

/**
 * What one viewer may see of any account: {@link accountFieldsFor} fixed to `viewer`. Callers hand
 * it to the API converters, which show many accounts (posters, assignees, owners) and decide none.
 */
export type AccountSight = (
  account: Pick<User, "id" | "keepEmailPrivate" | "hidePronouns">,
) => AccountFieldsView;

/** The {@link AccountSight} of `viewer` (null: an anonymous reader, as webhook receivers are). */
export function accountSight(viewer: Someone | null): AccountSight {
  return (account) => accountFieldsFor(viewer, account);
}
