import type { Repository, User } from "@kiln/domain";
import type { RepoAccess } from "./access-service.js";
import { canRead, canWrite, type RepoPermission } from "./repo-permission.js";
import { administersRepo } from "./repo-rules.js";

/** What a pull request rule looks at: the caller's permission on a repository and who the caller is. */
type Caller = Pick<RepoAccess, "permission" | "viewer">;

/**
 * Whether a permission writes a repository's code: what makes a user's review official, a
 * maintainer of a pull request's head, or a pusher when no rule says more. It judges the
 * permission alone: a site admin's permission already holds every unit.
 */
export function writesCode(
  access: Pick<RepoAccess, "permission"> | { readonly permission: RepoPermission },
): boolean {
  return canWrite(access.permission, "repo.code");
}

/** Whether a user with `permission` may be asked for a review: a reader of pull requests. */
export function mayReview(permission: RepoPermission): boolean {
  return canRead(permission, "repo.pulls");
}

/**
 * Whether a new pull request lets maintainers edit its head: the base repository's default, but
 * only for a poster who writes to the head repository (`head`), or anyone could open a pull
 * request from someone else's branch and so push to it.
 */
export function allowsMaintainerEditsByDefault(
  base: Pick<Repository, "pullsConfig">,
  head: Pick<RepoAccess, "permission">,
): boolean {
  return base.pullsConfig.defaultAllowMaintainerEdit && writesCode(head);
}

/**
 * Whether the caller may let maintainers edit a pull request's head, or stop them (Forgejo's
 * SetAllowEdits): the pull request's poster, who must write to the head repository (`head`,
 * undefined when the caller cannot see it).
 */
export function mayGrantMaintainerEdits(
  caller: Caller,
  issue: { readonly posterId: number | null },
  head: Pick<RepoAccess, "permission"> | undefined,
): boolean {
  return (
    caller.viewer !== null && issue.posterId === caller.viewer.id && head !== undefined && writesCode(head)
  );
}

/** Whether a pending review shows to `viewer` (Forgejo's prepareSingleReview): its reviewer and site admins. */
export function seesPendingReview(
  viewer: Pick<User, "id" | "isAdmin"> | null,
  review: { readonly reviewerId: number | null },
): boolean {
  return viewer !== null && (viewer.isAdmin || review.reviewerId === viewer.id);
}

/** Whether `doer` may delete a review: its reviewer and site admins. */
export function mayDeleteReview(
  doer: Pick<User, "id" | "isAdmin">,
  review: { readonly reviewerId: number | null },
): boolean {
  return seesPendingReview(doer, review);
}

/** Whether the caller may dismiss a review or take the dismissal back: repository and site admins. */
export function mayDismissReview(caller: Caller): boolean {
  return administersRepo(caller);
}
