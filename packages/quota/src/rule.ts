import type { SubjectSpelling } from "./subject.js";

/** The limit that means "no limit". */
export const UNLIMITED = -1;

/**
 * A quota rule: a set of subjects and a limit in bytes. It stands when the summed usage of its
 * subjects is strictly below the limit; `-1` never fails. Subjects keep the spelling they were
 * written with; a subject listed twice, under any spelling, is counted once.
 */
export interface QuotaRule {
  readonly name: string;
  readonly limit: number;
  readonly subjects: readonly SubjectSpelling[];
}

/** A named list of rules. It stands for a checked subject when every rule that applies stands. */
export interface QuotaGroup {
  readonly name: string;
  readonly rules: readonly QuotaRule[];
}

/** The groups that apply to an owner. The list stands when any one of its groups stands. */
export type QuotaGroupList = readonly QuotaGroup[];
