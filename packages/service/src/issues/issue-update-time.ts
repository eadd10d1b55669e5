import { type Issue, PermissionDeniedError } from "@kiln/domain";
import type { RepoAccess } from "../access/access-service.js";
import { maySetUpdateTime } from "../access/issue-rules.js";

/**
 * The time a change is recorded at: now, or the `updated_at` a repository admin gave, which
 * must lie between the issue's creation and now (Forgejo's SetIssueUpdateDate).
 */
export function updateTime(access: RepoAccess, issue: Issue, updatedAt: Date | undefined): Date {
  const now = new Date();
  if (!updatedAt) return now;
  if (!maySetUpdateTime(access)) {
    throw new PermissionDeniedError("user needs to have admin or owner right");
  }
  if (updatedAt.getTime() < issue.createdAt.getTime() - 999 || updatedAt.getTime() > now.getTime()) {
    throw new PermissionDeniedError("unallowed update date");
  }
  return updatedAt;
}
