import type { QuotaGroup, QuotaRule } from "./rule.js";
import type { Subject } from "./subject.js";

/** How one rule fared: its subjects' summed usage against its limit. */
export interface RuleVerdict {
  readonly rule: QuotaRule;
  /** Summed usage of the rule's subjects in bytes (rounded to a double above 2^53, never in practice). */
  readonly used: number;
  readonly limit: number;
  /** `limit === -1 || used < limit`. */
  readonly stands: boolean;
}

/** How one group fared for the checked subject. */
export interface GroupVerdict {
  readonly group: QuotaGroup;
  /** Every applicable rule stands (true when none applies). */
  readonly stands: boolean;
  /** The group's rules that apply to the checked subject, in the group's order. */
  readonly rules: readonly RuleVerdict[];
}

/**
 * Why a check came out as it did:
 * - `untracked-subject`: `size:wiki` is always within quota, whatever the rules say;
 * - `no-groups`: the list is empty, so no limit applies;
 * - `group-stands`: at least one group stands;
 * - `no-group-stands`: every group has an applicable rule that fails.
 */
export type QuotaVerdictReason = "untracked-subject" | "no-groups" | "group-stands" | "no-group-stands";

/** The full explanation of a quota check, for APIs, logs and diagnostics. */
export interface QuotaVerdict {
  readonly subject: Subject;
  readonly withinQuota: boolean;
  readonly reason: QuotaVerdictReason;
  /** Every group of the list, in order (empty for `untracked-subject`). */
  readonly groups: readonly GroupVerdict[];
}
