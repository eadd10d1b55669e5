import type { ProtectedBranch } from "@kiln/domain";
import { commitStatuses, type Db } from "@kiln/storage";
import { worstState } from "../git/commit-status-service.js";
import { contextMatcher } from "./status-glob.js";

/** At most this many contexts of one commit are read to judge its checks (more count as missing). */
const MAX_CONTEXTS = 256;
/**
 * The matching work one verdict may take (pattern tokens × context characters, summed): enough
 * for dozens of patterns over hundreds of contexts, while a rule of long brace-expanded patterns
 * over long contexts (billions of steps) cannot hold a request. Patterns past it are not matched.
 */
export const MAX_MATCH_STEPS = 1_000_000;

/** What a branch rule's required status checks say about a commit. */
export interface StatusCheckVerdict {
  /** Every required check reported `success`. */
  readonly passed: boolean;
  /** Why not, one entry per context or pattern: `ci/build: failure`, `ci/lint: missing`. */
  readonly problems: readonly string[];
}

/** A context's latest state, as the combined status lists it. */
export interface LatestStatus {
  readonly context: string;
  readonly state: string;
}

/**
 * Forgejo's required status checks (services/pull/commit_status.go): each pattern of
 * `status_check_contexts` must match at least one context of the commit's latest statuses, and
 * every context it matches must be `success`; `pending`, `warning`, `failure` and `error` refuse,
 * as does a pattern no context matches. Without patterns, the worst of all the commit's statuses
 * must be `success` (a commit without any refuses). A pattern that is not a valid glob matches
 * nothing, so a broken rule holds merges back rather than letting them through; so does a pattern
 * whose matching would take the verdict past {@link MAX_MATCH_STEPS} (`too complex to check`).
 */
export function judgeStatusChecks(
  contexts: readonly string[],
  latest: readonly LatestStatus[],
): StatusCheckVerdict {
  const problems: string[] = [];
  const patterns = contexts.filter((pattern) => pattern.trim() !== "");
  if (patterns.length === 0) {
    if (latest.length === 0) problems.push("no status reported");
    else if (worstState(latest.map((status) => status.state)) !== "success") {
      for (const status of latest)
        if (status.state !== "success") problems.push(`${status.context}: ${status.state}`);
    }
    return { passed: problems.length === 0, problems };
  }
  const characters = latest.reduce((sum, status) => sum + status.context.length, 0);
  let steps = 0;
  for (const pattern of new Set(patterns)) {
    const matcher = contextMatcher(pattern);
    const cost = (matcher?.size ?? 0) * characters;
    if (steps + cost > MAX_MATCH_STEPS) {
      problems.push(`${pattern}: too complex to check`);
      continue;
    }
    steps += cost;
    const matched = matcher ? latest.filter((status) => matcher.matches(status.context)) : [];
    if (matched.length === 0) problems.push(`${pattern}: missing`);
    for (const status of matched) {
      const problem = `${status.context}: ${status.state}`;
      if (status.state !== "success" && !problems.includes(problem)) problems.push(problem);
    }
  }
  return { passed: problems.length === 0, problems };
}

/**
 * The verdict of `rule`'s required status checks on commit `sha` of the repository (statuses are
 * those reported to the base repository, as Forgejo reads them); undefined when the rule requires
 * none.
 */
export async function statusChecksOf(
  db: Db,
  repoId: number,
  sha: string,
  rule: ProtectedBranch | undefined,
): Promise<StatusCheckVerdict | undefined> {
  if (!rule?.settings.enableStatusCheck) return undefined;
  const latest =
    sha === ""
      ? []
      : (await commitStatuses.latestCommitStatuses(db, repoId, sha, { page: 1, limit: MAX_CONTEXTS })).items;
  return judgeStatusChecks(rule.settings.statusCheckContexts, latest);
}

/** The refusal reason of failed checks, Forgejo's words first. */
export function statusCheckRefusal(verdict: StatusCheckVerdict): string {
  return `Not all required status checks successful (${verdict.problems.join(", ")})`;
}
