// docs/decisions.md, the quota model example: a group holds rule A (a combined limit over release assets,
// packages and LFS) and rule B (a limit on packages alone). The group fails when B is exceeded.
// It also fails when the combined size exceeds A, even if B is satisfied.
import { describe, expect, it } from "vitest";
import { group, rule, usage } from "../test/builders.js";
import { explainQuota, isWithinQuota } from "./evaluate.js";

const ruleA = rule("A", 10_000, "size:assets:attachments:releases", "size:assets:packages:all", "sizelfs");
const ruleB = rule("B", 4_000, "size:assets:packages:all");
const example = [group("example", ruleA, ruleB)];

describe("the specification's evaluation example", () => {
  it("stands while both rules hold", () => {
    const used = usage({ releaseAttachments: 3_000, packages: 3_000, lfs: 3_000 });
    expect(isWithinQuota(example, used, "size:all")).toBe(true);
    expect(isWithinQuota(example, used, "size:assets:packages:all")).toBe(true);
  });

  it("fails when B is exceeded", () => {
    const used = usage({ packages: 5_000 });
    expect(isWithinQuota(example, used, "size:all")).toBe(false);
    expect(isWithinQuota(example, used, "size:assets:packages:all")).toBe(false);
    const verdict = explainQuota(example, used, "size:all");
    expect(verdict.groups[0]!.rules.map((r) => [r.rule.name, r.used, r.stands])).toEqual([
      ["A", 5_000, true],
      ["B", 5_000, false],
    ]);
  });

  it("fails when the combined size exceeds A even though B holds", () => {
    const used = usage({ releaseAttachments: 4_000, packages: 3_000, lfs: 3_000 });
    expect(isWithinQuota(example, used, "size:all")).toBe(false);
    const verdict = explainQuota(example, used, "size:all");
    expect(verdict.groups[0]!.rules.map((r) => [r.rule.name, r.used, r.stands])).toEqual([
      ["A", 10_000, false],
      ["B", 3_000, true],
    ]);
  });

  it("checks of the subjects A covers fail too, and unrelated subjects are unaffected", () => {
    const used = usage({ releaseAttachments: 4_000, packages: 3_000, lfs: 3_000, reposPublic: 1e9 });
    for (const subject of [
      "size:assets:attachments:releases",
      "size:assets:attachments:all",
      "size:assets:packages:all",
      "size:assets:all",
      "sizelfs",
      "sizeall",
      "size:all",
    ] as const) {
      expect(isWithinQuota(example, used, subject)).toBe(false);
    }
    for (const subject of [
      "size:repos:all",
      "size:assets:attachments:issues",
      "size:assets:artifacts",
    ] as const) {
      expect(isWithinQuota(example, used, subject)).toBe(true);
    }
  });
});
