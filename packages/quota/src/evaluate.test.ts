import { describe, expect, it } from "vitest";
import { group, rule, usage } from "../test/builders.js";
import { InvalidLimitError, InvalidUsageError, UnrecognizedSubjectError } from "./errors.js";
import { explainQuota, isWithinQuota } from "./evaluate.js";
import { parseSubject } from "./parse-subject.js";
import { SUBJECTS, type SubjectSpelling } from "./subject.js";
import type { QuotaUsage } from "./usage.js";

const SOME_USAGE = usage({
  reposPublic: 100,
  reposPrivate: 200,
  lfs: 300,
  issueAttachments: 400,
  packages: 500,
});

/** Whether a rule that always fails (limit 0) on `ruleSubject` denies a check of `checked`. */
function deniedBy(ruleSubject: SubjectSpelling, checked: SubjectSpelling): boolean {
  return !isWithinQuota([group("g", rule("zero", 0, ruleSubject))], SOME_USAGE, checked);
}

describe("which rules apply to a checked subject", () => {
  it("a rule applies to its own subject, its ancestors and its descendants", () => {
    const applies = SUBJECTS.filter((checked) => deniedBy("size:repos:all", checked));
    expect(applies.sort()).toEqual([
      "size:all",
      "size:repos:all",
      "size:repos:private",
      "size:repos:public",
      "sizeall",
    ]);
  });

  it("a rule on size:all applies to every checked subject but none (and the untracked wiki)", () => {
    const applies = SUBJECTS.filter((checked) => deniedBy("size:all", checked));
    expect(applies.sort()).toEqual(SUBJECTS.filter((s) => s !== "none" && s !== "size:wiki").sort());
  });

  it("a rule on a leaf applies to that leaf and its ancestors only", () => {
    const applies = SUBJECTS.filter((checked) => deniedBy("size:assets:packages:all", checked));
    expect(applies.sort()).toEqual(["size:all", "size:assets:all", "size:assets:packages:all"]);
  });

  it("aliases apply like the subjects they stand for", () => {
    expect(SUBJECTS.filter((checked) => deniedBy("size:git:lfs", checked)).sort()).toEqual(
      ["size:all", "sizeall", "sizelfs"].sort(),
    );
    expect(deniedBy("sizelfs", "size:git:lfs")).toBe(true);
    expect(deniedBy("size:repos:public", "size:git:all")).toBe(true);
  });

  it("a rule on none applies to a check of none only", () => {
    expect(SUBJECTS.filter((checked) => deniedBy("none", checked))).toEqual(["none"]);
  });
});

describe("when a rule stands", () => {
  const check = (limit: number, used: QuotaUsage) =>
    isWithinQuota([group("g", rule("r", limit, "size:repos:all"))], used, "size:repos:all");

  it("stands while the summed usage is strictly below the limit", () => {
    expect(check(1024, usage({ reposPublic: 1023 }))).toBe(true);
    expect(check(1024, usage({ reposPublic: 1024 }))).toBe(false);
    expect(check(1024, usage({ reposPublic: 1000, reposPrivate: 24 }))).toBe(false);
    expect(check(1024, usage({ reposPublic: 2048 }))).toBe(false);
  });

  it("fails with limit 0 even when nothing is stored", () => {
    expect(check(0, usage({}))).toBe(false);
  });

  it("always stands with limit -1", () => {
    expect(check(-1, usage({ reposPublic: Number.MAX_SAFE_INTEGER }))).toBe(true);
  });

  it("never stands with a negative limit other than -1", () => {
    expect(check(-2, usage({}))).toBe(false);
  });

  it("sums all of its subjects, counting a subject written twice (under any spelling) once", () => {
    const lfs = usage({ lfs: 600, packages: 500 });
    const once = [
      group("g", rule("r", 1101, "sizelfs", "size:git:lfs", "size:assets:packages:all", "sizelfs")),
    ];
    expect(isWithinQuota(once, lfs, "size:all")).toBe(true);
    const tight = [group("g", rule("r", 1100, "sizelfs", "size:git:lfs", "size:assets:packages:all"))];
    expect(isWithinQuota(tight, lfs, "size:all")).toBe(false);
  });

  it("sums overlapping subjects as written: a rule on size:all and sizeall counts git twice", () => {
    const used = usage({ reposPublic: 10, packages: 5 });
    // size:all = 15, sizeall = 10: the rule's sum is 25.
    expect(isWithinQuota([group("g", rule("r", 26, "size:all", "sizeall"))], used, "size:all")).toBe(true);
    expect(isWithinQuota([group("g", rule("r", 25, "size:all", "sizeall"))], used, "size:all")).toBe(false);
  });

  it("compares exactly when a sum exceeds 2^53 (where doubles would round)", () => {
    // Public repositories are counted twice (size:repos:all and size:repos:public) plus 1 byte of LFS.
    const huge = usage({ reposPublic: 2 ** 52 + 1, lfs: 1 });
    const subjects: SubjectSpelling[] = ["size:repos:all", "size:repos:public", "sizelfs"];
    // exact sum: 2 * (2^52 + 1) + 1 = 2^53 + 3; as doubles it becomes 2^53 + 4.
    expect(isWithinQuota([group("g", rule("r", 2 ** 53 + 4, ...subjects))], huge, "size:all")).toBe(true);
    expect(isWithinQuota([group("g", rule("r", 2 ** 53 + 2, ...subjects))], huge, "size:all")).toBe(false);
    expect(isWithinQuota([group("g", rule("r", 2 ** 60, ...subjects))], huge, "size:all")).toBe(true);
  });
});

describe("groups and group lists", () => {
  const used = usage({ reposPublic: 1000, packages: 1000 });

  it("a group stands when every applicable rule stands", () => {
    const g = group(
      "g",
      rule("repos", 2000, "size:repos:all"),
      rule("packages", 500, "size:assets:packages:all"),
    );
    expect(isWithinQuota([g], used, "size:repos:all")).toBe(true);
    expect(isWithinQuota([g], used, "size:assets:packages:all")).toBe(false);
    expect(isWithinQuota([g], used, "size:all")).toBe(false);
  });

  it("a group with no applicable rule stands", () => {
    const g = group("g", rule("repos", 0, "size:repos:all"));
    expect(isWithinQuota([g], used, "size:assets:artifacts")).toBe(true);
    expect(isWithinQuota([group("empty")], used, "size:all")).toBe(true);
  });

  it("a list stands when any one group stands", () => {
    const deny = group("deny", rule("zero", 0, "size:all"));
    const allow = group("allow", rule("big", 10_000, "size:all"));
    expect(isWithinQuota([deny, allow], used, "size:all")).toBe(true);
    expect(isWithinQuota([allow, deny], used, "size:all")).toBe(true);
    expect(isWithinQuota([deny, deny], used, "size:all")).toBe(false);
  });

  it("an empty list imposes no limit", () => {
    expect(isWithinQuota([], used, "size:all")).toBe(true);
  });
});

describe("size:wiki and none", () => {
  const deny = [group("g", rule("all", 0, "size:all"), rule("wiki", 0, "size:wiki"))];

  it("size:wiki is always within quota, whatever the rules say", () => {
    expect(isWithinQuota(deny, SOME_USAGE, "size:wiki")).toBe(true);
    expect(isWithinQuota(deny, SOME_USAGE, "size:assets:wiki")).toBe(true);
  });

  it("a rule on the wiki uses 0 bytes, so it fails its branch only with limit 0", () => {
    expect(isWithinQuota([group("g", rule("wiki", 1, "size:wiki"))], SOME_USAGE, "size:assets:all")).toBe(
      true,
    );
    expect(isWithinQuota([group("g", rule("wiki", 0, "size:wiki"))], SOME_USAGE, "size:assets:all")).toBe(
      false,
    );
  });

  it("none uses 0 bytes and is limited only by rules on none", () => {
    expect(isWithinQuota(deny, SOME_USAGE, "none")).toBe(true);
    expect(isWithinQuota([group("g", rule("none", 1, "none"))], SOME_USAGE, "none")).toBe(true);
    expect(isWithinQuota([group("g", rule("none", 0, "none"))], SOME_USAGE, "none")).toBe(false);
  });
});

describe("inputs", () => {
  const g = [group("g", rule("r", 1000, "size:repos:all"))];

  it("accepts the checked subject parsed, with an alias spelling", () => {
    expect(isWithinQuota(g, usage({ reposPublic: 2000 }), parseSubject("size:git:all"))).toBe(false);
    expect(explainQuota(g, usage({}), parseSubject("size:git:all")).subject).toBe("sizeall");
  });

  it("rejects an unknown checked subject", () => {
    expect(() => isWithinQuota(g, usage({}), "size:git" as never)).toThrow(UnrecognizedSubjectError);
    expect(() => explainQuota(g, usage({}), "size:git" as never)).toThrow(UnrecognizedSubjectError);
  });

  it("rejects an unknown subject in a rule it evaluates", () => {
    const bad = [group("g", rule("bad", 10, "size:nope" as never))];
    expect(() => isWithinQuota(bad, usage({}), "size:all")).toThrow("[subject: size:nope]");
    expect(() => explainQuota(bad, usage({}), "size:all")).toThrow(UnrecognizedSubjectError);
  });

  it("rejects a limit that is not an integer, naming the rule", () => {
    const bad = [group("g", rule("half", 1.5, "size:all"))];
    expect(() => isWithinQuota(bad, usage({}), "size:all")).toThrow(InvalidLimitError);
    expect(() => explainQuota(bad, usage({}), "size:all")).toThrow('invalid limit of quota rule "half"');
    expect(() =>
      isWithinQuota([group("g", rule("nan", Number.NaN, "size:all"))], usage({}), "size:all"),
    ).toThrow(InvalidLimitError);
  });

  it("rejects invalid usage even for the wiki and for an empty list", () => {
    const bad = usage({ lfs: -5 });
    expect(() => isWithinQuota([], bad, "size:wiki")).toThrow(InvalidUsageError);
    expect(() => explainQuota([], bad, "size:all")).toThrow(InvalidUsageError);
  });
});

describe("explainQuota", () => {
  const repos = rule("repos", 2000, "size:repos:all");
  const packages = rule("packages", 500, "size:assets:packages:all");
  const lfs = rule("lfs", -1, "sizelfs");
  const limited = group("limited", repos, packages, lfs);
  const roomy = group("roomy", rule("total", 1_000_000, "size:all"));
  const used = usage({ reposPublic: 1000, lfs: 7, packages: 1000 });

  it("lists each group with the rules that apply, their usage, limit and outcome", () => {
    expect(explainQuota([limited], used, "size:assets:packages:all")).toEqual({
      subject: "size:assets:packages:all",
      withinQuota: false,
      reason: "no-group-stands",
      groups: [
        { group: limited, stands: false, rules: [{ rule: packages, used: 1000, limit: 500, stands: false }] },
      ],
    });
  });

  it("says which group stands", () => {
    const verdict = explainQuota([limited, roomy], used, "size:all");
    expect(verdict.withinQuota).toBe(true);
    expect(verdict.reason).toBe("group-stands");
    expect(verdict.groups.map((g) => [g.group.name, g.stands])).toEqual([
      ["limited", false],
      ["roomy", true],
    ]);
    expect(verdict.groups[0]!.rules.map((r) => [r.rule.name, r.used, r.stands])).toEqual([
      ["repos", 1000, true],
      ["packages", 1000, false],
      ["lfs", 7, true],
    ]);
    expect(verdict.groups[1]!.rules).toEqual([
      { rule: roomy.rules[0], used: 2007, limit: 1_000_000, stands: true },
    ]);
  });

  it("reports a group without applicable rules as standing with no rules", () => {
    expect(explainQuota([limited], used, "size:assets:artifacts")).toEqual({
      subject: "size:assets:artifacts",
      withinQuota: true,
      reason: "group-stands",
      groups: [{ group: limited, stands: true, rules: [] }],
    });
  });

  it("explains the wiki and the empty list", () => {
    expect(explainQuota([limited], used, "size:assets:wiki")).toEqual({
      subject: "size:wiki",
      withinQuota: true,
      reason: "untracked-subject",
      groups: [],
    });
    expect(explainQuota([], used, "size:all")).toEqual({
      subject: "size:all",
      withinQuota: true,
      reason: "no-groups",
      groups: [],
    });
  });
});
