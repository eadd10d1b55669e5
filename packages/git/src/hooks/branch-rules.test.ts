import { describe, expect, it } from "vitest";
import { findBranchRule, isPlainRuleName, ruleMatchesBranch, sortBranchRules } from "./branch-rules.js";

describe("branch rule matching", () => {
  it("tells plain names from globs", () => {
    expect(isPlainRuleName("main")).toBe(true);
    expect(isPlainRuleName("release/v1.0")).toBe(true);
    expect(isPlainRuleName("release/*")).toBe(false);
    expect(isPlainRuleName("v[0-9]")).toBe(false);
  });

  it("compares plain names case-insensitively and exactly", () => {
    expect(ruleMatchesBranch("main", "MAIN")).toBe(true);
    expect(ruleMatchesBranch("main", "main2")).toBe(false);
  });

  it("keeps * within one segment and lets ** cross segments", () => {
    expect(ruleMatchesBranch("release/*", "release/v1")).toBe(true);
    expect(ruleMatchesBranch("release/*", "release/v1/hotfix")).toBe(false);
    expect(ruleMatchesBranch("release/**", "release/v1/hotfix")).toBe(true);
    expect(ruleMatchesBranch("*", "feature")).toBe(true);
    expect(ruleMatchesBranch("*", "feature/x")).toBe(false);
  });

  it("lets an exact-name rule win over an earlier glob", () => {
    const rules = [
      { ruleName: "*", id: 1 },
      { ruleName: "main", id: 2 },
    ];
    expect(findBranchRule(rules, "main")?.id).toBe(2);
    expect(findBranchRule(rules, "dev")?.id).toBe(1);
  });

  it("picks the first glob by priority, then by id", () => {
    const rules = [
      { ruleName: "**", id: 1, priority: 5 },
      { ruleName: "feat/*", id: 3, priority: 1 },
      { ruleName: "feat/*", id: 2, priority: 1 },
    ];
    expect(findBranchRule(rules, "feat/x")?.id).toBe(2);
    expect(findBranchRule(rules, "other")?.id).toBe(1);
    expect(sortBranchRules(rules).map((rule) => rule.id)).toEqual([2, 3, 1]);
  });

  it("finds nothing when no rule matches", () => {
    expect(findBranchRule([{ ruleName: "main" }], "dev")).toBeUndefined();
  });
});
