import { describe, expect, it } from "vitest";
import { rule, usage } from "../test/builders.js";
import { InvalidLimitError, UnrecognizedSubjectError } from "./errors.js";
import { evaluateRule, ruleAppliesTo } from "./evaluate-rule.js";
import { parseSubject } from "./parse-subject.js";

describe("evaluateRule", () => {
  const used = usage({ lfs: 256, releaseAttachments: 256, packages: 2560 });

  it("reports the summed usage of the rule's subjects against its limit", () => {
    const combined = rule(
      "combined",
      1024,
      "size:git:lfs",
      "size:assets:attachments:releases",
      "size:assets:packages:all",
    );
    expect(evaluateRule(combined, used)).toEqual({ rule: combined, used: 3072, limit: 1024, stands: false });
    expect(evaluateRule({ ...combined, limit: 3073 }, used).stands).toBe(true);
    expect(evaluateRule({ ...combined, limit: -1 }, used).stands).toBe(true);
  });

  it("reports a rule without subjects as using nothing", () => {
    expect(evaluateRule(rule("empty", 1), used)).toMatchObject({ used: 0, stands: true });
    expect(evaluateRule(rule("empty", 0), used)).toMatchObject({ used: 0, stands: false });
  });

  it("rejects invalid rules", () => {
    expect(() => evaluateRule(rule("x", 0.5, "size:all"), used)).toThrow(InvalidLimitError);
    expect(() => evaluateRule(rule("x", 1, "bogus" as never), used)).toThrow(UnrecognizedSubjectError);
  });
});

describe("ruleAppliesTo", () => {
  const lfs = rule("lfs", 0, "size:git:lfs");

  it("is true for the rule's subjects, their ancestors and descendants", () => {
    expect(ruleAppliesTo(lfs, "sizelfs")).toBe(true);
    expect(ruleAppliesTo(lfs, "size:all")).toBe(true);
    expect(ruleAppliesTo(lfs, parseSubject("size:git:all"))).toBe(true);
    expect(ruleAppliesTo(rule("all", 0, "size:all"), "size:repos:public")).toBe(true);
  });

  it("is false for unrelated subjects and for rules without subjects", () => {
    expect(ruleAppliesTo(lfs, "size:repos:all")).toBe(false);
    expect(ruleAppliesTo(lfs, "none")).toBe(false);
    expect(ruleAppliesTo(rule("empty", 0), "size:all")).toBe(false);
  });
});
