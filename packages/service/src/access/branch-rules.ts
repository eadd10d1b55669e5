import type { ProtectedBranchSettings } from "@kiln/domain";
import { canRead, canWrite, type RepoPermission } from "./repo-permission.js";

/** What decides whether one user may push to or merge into a protected branch. */
export interface PusherFacts {
  readonly userId: number;
  /** Write access to the repository's code. */
  readonly canWriteCode: boolean;
  /** The user's teams in the owning organization (empty for a user-owned repository). */
  readonly teamIds: ReadonlySet<number>;
}

function whitelisted(userIds: readonly number[], teamIds: readonly number[], facts: PusherFacts): boolean {
  return userIds.includes(facts.userId) || teamIds.some((id) => facts.teamIds.has(id));
}

/**
 * Forgejo's `CanUserPush`: write access on an unprotected branch (`settings` undefined); on a
 * protected one nobody when pushing is disabled, everyone with write access when there is no
 * whitelist, otherwise only the whitelisted users and members of whitelisted teams.
 */
export function mayPush(settings: ProtectedBranchSettings | undefined, facts: PusherFacts): boolean {
  if (!settings) return facts.canWriteCode;
  if (!settings.canPush) return false;
  if (!settings.enableWhitelist) return facts.canWriteCode;
  return whitelisted(settings.whitelistUserIds, settings.whitelistTeamIds, facts);
}

/**
 * Forgejo's `IsUserMergeWhitelisted`, for merging a pull request into a branch: write access when
 * the branch is unprotected (`settings` undefined) or has no merge whitelist, else the whitelist.
 */
export function mayMerge(settings: ProtectedBranchSettings | undefined, facts: PusherFacts): boolean {
  if (!settings?.enableMergeWhitelist) return facts.canWriteCode;
  return whitelisted(settings.mergeWhitelistUserIds, settings.mergeWhitelistTeamIds, facts);
}

/**
 * Whether a user with `permission` may stand on a branch rule's whitelist: the push whitelist
 * (`need` "write") keeps writers of the code, the merge and approvals whitelists ("read") its
 * readers; other names are dropped, as Forgejo does.
 */
export function mayBeWhitelisted(permission: RepoPermission, need: "read" | "write"): boolean {
  return need === "write" ? canWrite(permission, "repo.code") : canRead(permission, "repo.code");
}
