import { type ProtectedBranch, type PullRequest, PullStatus } from "@kiln/domain";
import type { ReviewVerdict } from "@kiln/storage";
import { type StatusCheckVerdict, statusCheckRefusal } from "./status-checks.js";

/** Forgejo's default work-in-progress title prefixes (`[repository.pull-request] WORK_IN_PROGRESS_PREFIXES`). */
const WIP_PREFIXES = ["WIP:", "[WIP]"];

/** Whether a title marks a pull request as a draft. */
export function isWorkInProgress(title: string): boolean {
  const upper = title.trimStart().toUpperCase();
  return WIP_PREFIXES.some((prefix) => upper.startsWith(prefix.toUpperCase()));
}

/** Forgejo's `Mergeable()`: the state allows merging and it is not a draft. */
export function isMergeable(pull: PullRequest, title: string): boolean {
  const { status } = pull;
  return (
    status !== PullStatus.checking &&
    status !== PullStatus.conflict &&
    status !== PullStatus.error &&
    !isWorkInProgress(title)
  );
}

/** Why a pull request's state does not allow a merge now (undefined when it does). */
export function stateRefusal(pull: PullRequest): string | undefined {
  switch (pull.status) {
    case PullStatus.mergeable:
    case PullStatus.empty:
      return undefined;
    case PullStatus.conflict:
      return pull.conflictedFiles.length > 0
        ? `there are merge conflicts [files: ${pull.conflictedFiles.join(", ")}]`
        : "there are merge conflicts (the histories are unrelated)";
    case PullStatus.ancestor:
      return "the head branch is already part of the base branch: there is nothing to merge";
    default:
      return "Please try again later";
  }
}

/**
 * The first reason a protection rule refuses a merge (Forgejo's CheckPullBranchProtections, in
 * its order and words), or undefined. `checks` is the verdict of the rule's required status checks
 * on the head (undefined when it requires none).
 */
export function protectionRefusal(
  rule: ProtectedBranch,
  pull: PullRequest,
  verdict: ReviewVerdict,
  checks?: StatusCheckVerdict,
): string | undefined {
  const s = rule.settings;
  if (checks && !checks.passed) return statusCheckRefusal(checks);
  if (s.requiredApprovals > 0 && verdict.approvals < s.requiredApprovals)
    return "Does not have enough approvals";
  if (s.blockOnRejectedReviews && verdict.rejected) return "There are requested changes";
  if (s.blockOnOfficialReviewRequests && verdict.officialRequests)
    return "There are official review requests";
  if (s.blockOnOutdatedBranch && pull.commitsBehind > 0) return "The head branch is behind the base branch";
  if (s.protectedFilePatterns.trim() !== "" && pull.changedProtectedFiles.length > 0)
    return "Changed protected files";
  return undefined;
}

/**
 * The message of the commit a merge writes, as Forgejo's API builds it (no template, no
 * `Reviewed-on`). `head` names a head in another repository (`owner/repo:branch`, or
 * `<deleted>:branch` once that is gone); a head in the base is named by its branch.
 */
export function mergeMessage(
  style: string,
  pull: { readonly index: number; readonly headBranch: string; readonly baseBranch: string },
  title: string,
  given: { readonly title?: string | undefined; readonly message?: string | undefined },
  head: string = pull.headBranch,
): string {
  const heading =
    given.title?.trim() ||
    (style === "squash"
      ? `${title} (#${pull.index})`
      : `Merge pull request '${title}' (#${pull.index}) from ${head} into ${pull.baseBranch}`);
  const body = given.message?.trim();
  return body ? `${heading}\n\n${body}` : heading;
}
