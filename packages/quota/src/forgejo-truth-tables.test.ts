// Forgejo's evaluation unit tests (reference/forgejo/quota-test-cases.md §4), case by case. Where
// Kiln's decisions give the same answer the case is asserted as is; where they differ (decision
// 3, docs/decisions.md: strict `<`, rules on descendants apply, no applicable rule means no limit, the wiki is
// always within quota), the test asserts Kiln's answer and says "Kiln differs". docs/quota.md
// lists every difference.
import { describe, expect, it } from "vitest";
import { group, rule, usage } from "../test/builders.js";
import { explainQuota, isWithinQuota } from "./evaluate.js";
import { evaluateRule, ruleAppliesTo } from "./evaluate-rule.js";
import { canonicalSubject } from "./parse-subject.js";
import { SUBJECT_ALIASES, SUBJECTS, type SubjectAlias, type SubjectSpelling } from "./subject.js";
import { descendantsOf } from "./subject-tree.js";
import { type QuotaUsage, USAGE_COUNTER_SUBJECTS, USAGE_COUNTERS } from "./usage.js";
import { usageOf } from "./usage-of.js";

const ALL_SPELLINGS: SubjectSpelling[] = [...SUBJECTS, ...(Object.keys(SUBJECT_ALIASES) as SubjectAlias[])];
const UNTRACKED: readonly SubjectSpelling[] = ["size:wiki", "size:assets:wiki", "none"];
const TRACKED = ALL_SPELLINGS.filter((s) => !UNTRACKED.includes(s));

/** Usage in which `subject` is worth exactly `bytes`, all of it in the first leaf counter below it. */
function usageWhere(subject: SubjectSpelling, bytes: number): QuotaUsage {
  const canonical = canonicalSubject(subject);
  const below = new Set([canonical, ...descendantsOf(canonical)]);
  const counter = USAGE_COUNTERS.find((c) => below.has(USAGE_COUNTER_SUBJECTS[c]))!;
  return usage({ [counter]: bytes });
}

describe("TestQuotaRuleDirectEvaluation (v13+; v12 used <=)", () => {
  it.each(TRACKED)(
    "a rule on %s: limit 0 fails even unused, -1 stands, 1024 stands at 512 and fails at 2048",
    (s) => {
      const at = (limit: number, bytes: number) =>
        evaluateRule(rule("r", limit, s), usageWhere(s, bytes)).stands;
      expect(usageOf(usageWhere(s, 512), s)).toBe(512);
      expect(at(0, 0)).toBe(false); // Kiln differs from v12 (0 <= 0 stood there); same as v13+.
      expect(at(0, 512)).toBe(false);
      expect(at(-1, 512)).toBe(true);
      expect(at(1024, 512)).toBe(true);
      expect(at(1024, 2048)).toBe(false);
    },
  );

  it.each(["size:wiki", "size:assets:wiki", "none"] as const)(
    "a rule on the untracked %s uses 0 bytes",
    (s) => {
      expect(evaluateRule(rule("r", 0, s), usage({ reposPublic: 512 })).stands).toBe(false);
      expect(evaluateRule(rule("r", 1, s), usage({ reposPublic: 512 })).stands).toBe(true);
      expect(evaluateRule(rule("r", -1, s), usage({})).stands).toBe(true);
    },
  );
});

describe("TestQuotaRuleNoMatch (v13+)", () => {
  it.each([-1, 0, 1024])("a rule on attachments:all (limit %i) does not apply to repos:all", (limit) => {
    expect(ruleAppliesTo(rule("r", limit, "size:assets:attachments:all"), "size:repos:all")).toBe(false);
  });
});

describe("TestQuotaRuleCombined", () => {
  const used = usage({ lfs: 256, releaseAttachments: 256, packages: 2560 }); // sum 3072
  const combined = (limit: number) =>
    rule("r", limit, "size:git:lfs", "size:assets:attachments:releases", "size:assets:packages:all");

  it("applies to its three subjects", () => {
    for (const s of [
      "size:git:lfs",
      "size:assets:attachments:releases",
      "size:assets:packages:all",
    ] as const) {
      expect(ruleAppliesTo(combined(1024), s)).toBe(true);
    }
  });

  it("Kiln differs: also applies to their ancestors (Forgejo ignores rules on descendants)", () => {
    const applies = ALL_SPELLINGS.filter((s) => ruleAppliesTo(combined(1024), s));
    expect(applies.sort()).toEqual(
      [
        "size:all",
        "sizeall",
        "size:git:all",
        "sizelfs",
        "size:git:lfs",
        "size:assets:all",
        "size:assets:attachments:all",
        "size:assets:attachments:releases",
        "size:assets:packages:all",
      ].sort(),
    );
  });

  it("stands at -1 and 1 MiB, fails at 1024", () => {
    expect(evaluateRule(combined(-1), used)).toMatchObject({ used: 3072, stands: true });
    expect(evaluateRule(combined(1024 * 1024), used).stands).toBe(true);
    expect(evaluateRule(combined(1024), used).stands).toBe(false);
  });
});

describe("TestQuotaRuleSizeAll", () => {
  const full = usage({
    reposPublic: 1024,
    reposPrivate: 1024,
    lfs: 1024,
    issueAttachments: 1024,
    releaseAttachments: 1024,
    artifacts: 1024,
    packages: 1024,
  });

  it("with nothing stored: -1, 1 MiB and 5 KiB stand, 0 fails", () => {
    for (const [limit, stands] of [
      [-1, true],
      [1024 * 1024, true],
      [5 * 1024, true],
      [0, false],
    ] as const) {
      expect(evaluateRule(rule("all", limit, "size:all"), usage({})).stands).toBe(stands);
    }
  });

  it("with every counter at 1024 (size:all = 7168): 5 KiB fails", () => {
    expect(usageOf(full, "size:all")).toBe(7168);
    expect(evaluateRule(rule("all", 5 * 1024, "size:all"), full).stands).toBe(false);
  });

  it("v12 cases: 102400 stands until repos.public is 204800; 512 fails", () => {
    expect(evaluateRule(rule("all", 102_400, "size:all"), full).stands).toBe(true);
    expect(evaluateRule(rule("all", 102_400, "size:all"), usage({ reposPublic: 204_800 })).stands).toBe(
      false,
    );
    expect(evaluateRule(rule("all", 512, "size:all"), full).stands).toBe(false);
  });
});

describe("TestQuotaGroupAllRulesMustPass (v12)", () => {
  it("{-1, size:all} + {0, size:all} with repos.public 1024 fails", () => {
    const g = group("g", rule("unlimited", -1, "size:all"), rule("deny", 0, "size:all"));
    expect(isWithinQuota([g], usage({ reposPublic: 1024 }), "size:all")).toBe(false);
  });
});

describe("TestQuotaGroupRuleScenario1", () => {
  const g = group(
    "g",
    rule("combined", 1024, "size:assets:attachments:releases", "size:git:lfs", "size:assets:packages:all"),
    rule("no-lfs", 0, "size:git:lfs"),
  );
  const used = usage({ releaseAttachments: 512, packages: 256, lfs: 16 });

  it("releases and packages stand (limit 1024), LFS fails (limit 0)", () => {
    expect(isWithinQuota([g], used, "size:assets:attachments:releases")).toBe(true);
    expect(isWithinQuota([g], used, "size:assets:packages:all")).toBe(true);
    expect(isWithinQuota([g], used, "size:git:lfs")).toBe(false);
  });

  it("size:all fails because both rules apply and LFS's fails (v12: same; v13+: no match, denied)", () => {
    const verdict = explainQuota([g], used, "size:all");
    expect(verdict.withinQuota).toBe(false);
    expect(verdict.groups[0]!.rules.map((r) => [r.rule.name, r.stands])).toEqual([
      ["combined", true],
      ["no-lfs", false],
    ]);
  });
});

describe("TestQuotaGroupRuleCombination", () => {
  const g = group(
    "g",
    rule("repos", 4096, "size:repos:all"),
    rule("packages", 0, "size:assets:packages:all"),
  );
  const used = usage({ reposPublic: 1024, packages: 1024 });

  it("repos:all stands (4096), packages:all fails (0), size:all fails", () => {
    expect(isWithinQuota([g], used, "size:repos:all")).toBe(true);
    expect(isWithinQuota([g], used, "size:assets:packages:all")).toBe(false);
    expect(isWithinQuota([g], used, "size:all")).toBe(false);
  });

  it("Kiln differs: git:lfs has no applicable rule, so it is within quota (Forgejo denies)", () => {
    expect(isWithinQuota([g], used, "size:git:lfs")).toBe(true);
    expect(explainQuota([g], used, "size:git:lfs").groups[0]).toMatchObject({ stands: true, rules: [] });
  });
});

describe("TestQuotaGroupListsRequireOnlyOneAllow / OnlyOnePassing", () => {
  it("[deny group, unlimited group] is within quota", () => {
    const deny = group("deny", rule("deny", 0, "size:all"));
    const unlimited = group("unlimited", rule("unlimited", -1, "size:all"));
    expect(isWithinQuota([deny, unlimited], usage({ reposPublic: 1024 }), "size:all")).toBe(true);
  });
});

describe("TestQuotaGroupListAllDeny / AllFailing", () => {
  it("[{0, size:all}, {1024, size:all}] with repos.public 2048 is over quota", () => {
    const groups = [group("a", rule("a", 0, "size:all")), group("b", rule("b", 1024, "size:all"))];
    expect(isWithinQuota(groups, usage({ reposPublic: 2048 }), "size:all")).toBe(false);
  });
});

describe("Forgejo v12 consequences that Kiln does not share", () => {
  it("Kiln differs: a group whose only rule is size:all limits its descendants by usage", () => {
    // v12 denied every subject but size:all regardless of usage; Kiln applies the rule to them.
    const g = [group("g", rule("all", 1024, "size:all"))];
    expect(isWithinQuota(g, usage({ reposPublic: 100 }), "size:repos:all")).toBe(true);
    expect(isWithinQuota(g, usage({ reposPublic: 2000 }), "size:repos:all")).toBe(false);
  });

  it("Kiln differs: the wiki is within quota even under a deny-all rule (v13+ denied it via size:all)", () => {
    expect(isWithinQuota([group("g", rule("deny", 0, "size:all"))], usage({}), "size:assets:wiki")).toBe(
      true,
    );
  });
});

describe("Forgejo v12 looked at descendants only when no rule covered the subject", () => {
  it("Kiln differs: a failing rule on a descendant fails a size:all check despite a standing size:all rule", () => {
    const g = [
      group("g", rule("all", 1024 * 1024, "size:all"), rule("packages", 0, "size:assets:packages:all")),
    ];
    // v12: the size:all rule covers size:all and stands, children are not consulted → allowed.
    expect(isWithinQuota(g, usage({ packages: 10 }), "size:all")).toBe(false);
  });
});
