import type { QuotaVerdict, RuleVerdict } from "./verdict.js";

function describeRule(verdict: RuleVerdict): string {
  const limit = verdict.limit === -1 ? "unlimited" : `limit ${verdict.limit}`;
  return `rule "${verdict.rule.name}" uses ${verdict.used} bytes, ${limit}`;
}

/**
 * The rules that make a check fail: every failing applicable rule of every group, in order.
 * Empty when the check is within quota.
 */
export function failedRules(verdict: QuotaVerdict): readonly RuleVerdict[] {
  if (verdict.withinQuota) return [];
  return verdict.groups.flatMap((group) => group.rules.filter((rule) => !rule.stands));
}

/** A one-line English explanation of a verdict, for logs and diagnostics. */
export function describeVerdict(verdict: QuotaVerdict): string {
  const head = `${verdict.subject} is ${verdict.withinQuota ? "within" : "over"} quota`;
  switch (verdict.reason) {
    case "untracked-subject":
      return `${head}: wiki size is not tracked`;
    case "no-groups":
      return `${head}: no quota group applies`;
    case "group-stands": {
      const group = verdict.groups.find((candidate) => candidate.stands)!;
      const applied =
        group.rules.length === 0 ? "no rule of it applies" : group.rules.map(describeRule).join("; ");
      return `${head}: group "${group.group.name}" stands (${applied})`;
    }
    case "no-group-stands":
      return `${head}: ${verdict.groups
        .map(
          (group) =>
            `group "${group.group.name}" fails (${group.rules
              .filter((r) => !r.stands)
              .map(describeRule)
              .join("; ")})`,
        )
        .join(", ")}`;
  }
}
