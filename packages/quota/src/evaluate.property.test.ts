// Property test: random rules, groups, usage and checked subjects; the engine must agree with the
// deliberately naive reference in test/naive-reference.mjs on every answer and every explanation.
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  naiveGroupStands,
  naiveRuleApplies,
  naiveRuleStands,
  naiveUsage,
  naiveWithinQuota,
} from "../test/naive-reference.mjs";
import { explainQuota, isWithinQuota } from "./evaluate.js";
import { evaluateRule, ruleAppliesTo } from "./evaluate-rule.js";
import type { QuotaGroup, QuotaRule } from "./rule.js";
import { SUBJECT_ALIASES, SUBJECTS, type SubjectAlias, type SubjectSpelling } from "./subject.js";
import { type QuotaUsage, USAGE_COUNTERS } from "./usage.js";
import { usageOf } from "./usage-of.js";

const SPELLINGS: SubjectSpelling[] = [...SUBJECTS, ...(Object.keys(SUBJECT_ALIASES) as SubjectAlias[])];
const spelling = fc.constantFrom(...SPELLINGS);

// Mostly small counters (limits land near them), sometimes huge ones: a rule over overlapping
// subjects (size:all, sizeall, size:repos:all...) then sums beyond 2^53, where doubles round.
const counter = fc.oneof(
  { weight: 4, arbitrary: fc.integer({ min: 0, max: 3000 }) },
  {
    weight: 1,
    arbitrary: fc.integer({ min: 0, max: Math.floor(Number.MAX_SAFE_INTEGER / USAGE_COUNTERS.length) }),
  },
  { weight: 1, arbitrary: fc.integer({ min: 2 ** 50, max: 2 ** 52 }) },
);
const usageArb: fc.Arbitrary<QuotaUsage> = fc
  .record(
    Object.fromEntries(USAGE_COUNTERS.map((name) => [name, counter])) as Record<
      keyof QuotaUsage,
      typeof counter
    >,
  )
  .filter((usage) => naiveUsage(usage, "size:all") <= BigInt(Number.MAX_SAFE_INTEGER));

/** A limit: unlimited, arbitrary, or right at the rule's own sum (minus one, equal, plus one). */
function limitFor(usage: QuotaUsage, subjects: readonly SubjectSpelling[]): fc.Arbitrary<number> {
  const sum = [...new Set(subjects)].reduce((total, s) => total + naiveUsage(usage, s), 0n);
  return fc.oneof(
    fc.constant(-1),
    fc.integer({ min: -3, max: 8000 }),
    fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }).map((n) => n * 16),
    fc.integer({ min: -1, max: 1 }).map((delta) => Number(sum + BigInt(delta))),
  );
}

function ruleArb(usage: QuotaUsage): fc.Arbitrary<QuotaRule> {
  return fc
    .tuple(fc.string({ maxLength: 3 }), fc.array(spelling, { maxLength: 4 }))
    .chain(([name, subjects]) => limitFor(usage, subjects).map((limit) => ({ name, limit, subjects })));
}

const scenario = usageArb.chain((usage) =>
  fc.record({
    usage: fc.constant(usage),
    groups: fc.array(
      fc.record({ name: fc.string({ maxLength: 3 }), rules: fc.array(ruleArb(usage), { maxLength: 4 }) }),
      { maxLength: 4 },
    ),
    subject: spelling,
  }),
);

describe("the engine agrees with the naive reference", () => {
  it("on whether a check is within quota", () => {
    fc.assert(
      fc.property(scenario, ({ groups, usage, subject }) => {
        expect(isWithinQuota(groups, usage, subject)).toBe(naiveWithinQuota(groups, usage, subject));
      }),
      { numRuns: 3000 },
    );
  });

  it("on every part of the explanation", () => {
    fc.assert(
      fc.property(scenario, ({ groups, usage, subject }) => {
        const verdict = explainQuota(groups, usage, subject);
        expect(verdict.withinQuota).toBe(naiveWithinQuota(groups, usage, subject));
        if (verdict.reason === "untracked-subject" || verdict.reason === "no-groups") {
          expect(verdict.groups).toEqual([]);
          return;
        }
        expect(verdict.groups.map((g) => g.group)).toEqual(groups);
        verdict.groups.forEach((g, index) => {
          const group = groups[index] as QuotaGroup;
          expect(g.stands).toBe(naiveGroupStands(group, usage, subject));
          expect(g.rules.map((r) => r.rule)).toEqual(group.rules.filter((r) => naiveRuleApplies(r, subject)));
          for (const r of g.rules) expect(r.stands).toBe(naiveRuleStands(r.rule, usage));
        });
      }),
      { numRuns: 2000 },
    );
  });

  it("on single rules and on the usage of every subject", () => {
    fc.assert(
      fc.property(
        usageArb.chain((usage) => fc.tuple(fc.constant(usage), ruleArb(usage), spelling)),
        ([usage, rule, s]) => {
          expect(evaluateRule(rule, usage).stands).toBe(naiveRuleStands(rule, usage));
          expect(ruleAppliesTo(rule, s)).toBe(naiveRuleApplies(rule, s));
          expect(BigInt(usageOf(usage, s))).toBe(naiveUsage(usage, s));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
