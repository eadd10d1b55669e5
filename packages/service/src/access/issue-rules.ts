import type { RepoUnit, User } from "@kiln/domain";
import type { RepoAccess } from "./access-service.js";
import { isSelfOrAdmin } from "./account-rules.js";
import { canRead, canWrite, isRepoAdmin, type RepoPermission } from "./repo-permission.js";
import { administersRepo } from "./repo-rules.js";

/** What an issue rule looks at: the caller's permission on the repository and who the caller is. */
type Caller = Pick<RepoAccess, "permission" | "viewer">;

/** The unit that governs an issue, or a pull request. */
function issueUnit(isPull: boolean): RepoUnit {
  return isPull ? "repo.pulls" : "repo.issues";
}

/**
 * Whether the caller may change issues (or pull requests) of the repository (Forgejo's
 * CanWriteIssuesOrPulls): writers of the unit and site admins. They manage labels, milestones,
 * assignees, due dates and state, talk on locked issues and edit anyone's text.
 */
export function writesIssues(caller: Caller, isPull: boolean): boolean {
  return canWrite(caller.permission, issueUnit(isPull)) || caller.viewer?.isAdmin === true;
}

/** Whether the caller may read issues (or pull requests) of the repository (site admins always may). */
export function readsIssues(caller: Caller, isPull: boolean): boolean {
  return canRead(caller.permission, issueUnit(isPull)) || caller.viewer?.isAdmin === true;
}

/** Which kinds of issue a list may show the caller (Forgejo's ListIssues restriction). */
export function readableIssueKinds(
  permission: RepoPermission,
  viewer: Pick<User, "isAdmin"> | null,
): { issues: boolean; pulls: boolean } {
  const admin = viewer?.isAdmin === true;
  return {
    issues: admin || canRead(permission, "repo.issues"),
    pulls: admin || canRead(permission, "repo.pulls"),
  };
}

/** Whether the caller may edit an issue's (or pull request's) title, body and state: its poster or a writer. */
export function mayEditIssue(
  caller: Caller,
  issue: { readonly posterId: number | null; readonly isPull: boolean },
): boolean {
  return isPoster(caller, issue.posterId) || writesIssues(caller, issue.isPull);
}

/** Whether the caller may edit or delete a comment: its poster or a writer of the issue's unit. */
export function mayEditComment(
  caller: Caller,
  comment: { readonly posterId: number | null },
  isPull: boolean,
): boolean {
  return isPoster(caller, comment.posterId) || writesIssues(caller, isPull);
}

/**
 * Whether the caller may comment on, or react to, an issue: anyone who reads it, but only
 * writers once it is locked (Forgejo's "You cannot comment on a locked issue.").
 */
export function mayTalkOn(
  caller: Caller,
  issue: { readonly isLocked: boolean; readonly isPull: boolean },
): boolean {
  return !issue.isLocked || writesIssues(caller, issue.isPull);
}

/**
 * Whether the caller may date a change in the past with `updated_at` (Forgejo's
 * SetIssueUpdateDate): repository admins and site admins.
 */
export function maySetUpdateTime(caller: Caller): boolean {
  return administersRepo(caller);
}

/**
 * Whether the caller may add or remove an issue's attachments: its poster, repository admins and
 * writers of the issue's unit.
 */
export function mayChangeIssueAttachments(
  caller: Caller,
  issue: { readonly posterId: number | null; readonly isPull: boolean },
): boolean {
  return (
    caller.viewer !== null &&
    (isPoster(caller, issue.posterId) || administersRepo(caller) || writesIssues(caller, issue.isPull))
  );
}

/**
 * Whether the caller may add or remove a comment's attachments: its poster or a repository admin,
 * who must also write the issue's unit (Forgejo's editCommentAttachment).
 */
export function mayChangeCommentAttachments(
  caller: Caller,
  comment: { readonly posterId: number | null },
  isPull: boolean,
): boolean {
  return (
    caller.viewer !== null &&
    (isPoster(caller, comment.posterId) || administersRepo(caller)) &&
    writesIssues(caller, isPull)
  );
}

/**
 * Whether a user with `permission` may be assigned to an issue (Forgejo's CanBeAssigned): a
 * repository admin, a writer of any unit an assignee works on, or a reader of pull requests.
 */
export function mayBeAssigned(permission: RepoPermission): boolean {
  return (
    isRepoAdmin(permission) ||
    (["repo.code", "repo.issues", "repo.pulls", "repo.wiki", "repo.releases"] as const).some((unit) =>
      canWrite(permission, unit),
    ) ||
    canRead(permission, "repo.pulls")
  );
}

/**
 * Whether the user `doerId` may close, and may comment on, an issue that a commit message
 * references (Forgejo's canclose and cancomment): closing needs a repository admin, a writer of
 * the issue's unit or the issue's poster; commenting closing rights or reading the unit.
 */
export function referenceRights(
  permission: RepoPermission,
  issue: { readonly posterId: number | null; readonly isPull: boolean },
  doerId: number,
): { close: boolean; comment: boolean } {
  const unit = issueUnit(issue.isPull);
  const close = isRepoAdmin(permission) || canWrite(permission, unit) || issue.posterId === doerId;
  return { close, comment: close || canRead(permission, unit) };
}

/** Whether `doer` may change `user`'s subscription to an issue: the user itself or a site admin. */
export function mayChangeSubscriptionOf(doer: Pick<User, "id" | "isAdmin">, user: Pick<User, "id">): boolean {
  return isSelfOrAdmin(doer, user);
}

/**
 * Whether the caller may track time on an issue (Forgejo's CanUseTimetracker): writers of the
 * issue's unit, its poster and, as the caller knows (`assigned`), its assignees.
 */
export function mayTrackTime(
  caller: Caller,
  issue: { readonly posterId: number | null; readonly isPull: boolean },
  assigned: boolean,
): boolean {
  if (!caller.viewer) return false;
  return writesIssues(caller, issue.isPull) || isPoster(caller, issue.posterId) || assigned;
}

/**
 * Whether the caller may see and record everyone's tracked time rather than only its own: writers
 * of the unit (`admins` asks for repository admins instead, as the older `…/times/{user}` does)
 * and site admins.
 */
export function managesTimes(
  caller: Caller,
  isPull: boolean,
  who: "writers" | "admins" = "writers",
): boolean {
  const manager = who === "admins" ? isRepoAdmin(caller.permission) : writesIssues(caller, isPull);
  return manager || caller.viewer?.isAdmin === true;
}

/** Whether the caller may record time in another user's name: repository admins and site admins. */
export function mayTrackTimeForOthers(caller: Caller): boolean {
  return administersRepo(caller);
}

/** Whether `doer` may delete a tracked time: the user it counts for, or a site admin. */
export function mayDeleteTime(
  doer: Pick<User, "id" | "isAdmin">,
  entry: { readonly userId: number | null },
): boolean {
  return doer.isAdmin || (entry.userId !== null && isSelfOrAdmin(doer, { id: entry.userId }));
}

function isPoster(caller: Caller, posterId: number | null): boolean {
  return caller.viewer !== null && posterId !== null && caller.viewer.id === posterId;
}
