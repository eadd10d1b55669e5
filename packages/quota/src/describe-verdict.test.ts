import { describe, expect, it } from "vitest";
import { group, rule, usage } from "../test/builders.js";
import { describeVerdict, failedRules } from "./describe-verdict.js";
import { explainQuota } from "./evaluate.js";

const used = usage({ reposPublic: 2048, packages: 100 });
const small = group("small", rule("repo-size", 1024, "size:repos:all"), rule("unlimited", -1, "size:all"));
const tiny = group("tiny", rule("deny-all", 0, "size:all"));

describe("describeVerdict", () => {
  it("names every failing rule with its usage and limit", () => {
    const verdict = explainQuota([small, tiny], used, "size:repos:all");
    expect(describeVerdict(verdict)).toBe(
      'size:repos:all is over quota: group "small" fails (rule "repo-size" uses 2048 bytes, limit 1024), ' +
        'group "tiny" fails (rule "deny-all" uses 2148 bytes, limit 0)',
    );
  });

  it("names the standing group and what it applied", () => {
    expect(describeVerdict(explainQuota([tiny, small], used, "size:assets:packages:all"))).toBe(
      'size:assets:packages:all is within quota: group "small" stands (rule "unlimited" uses 2148 bytes, unlimited)',
    );
    expect(describeVerdict(explainQuota([group("empty")], used, "size:all"))).toBe(
      'size:all is within quota: group "empty" stands (no rule of it applies)',
    );
  });

  it("explains the wiki and the empty list", () => {
    expect(describeVerdict(explainQuota([tiny], used, "size:wiki"))).toBe(
      "size:wiki is within quota: wiki size is not tracked",
    );
    expect(describeVerdict(explainQuota([], used, "size:all"))).toBe(
      "size:all is within quota: no quota group applies",
    );
  });
});

describe("failedRules", () => {
  it("lists the failing applicable rules of every group when over quota", () => {
    const verdict = explainQuota([small, tiny], used, "size:all");
    expect(failedRules(verdict).map((r) => r.rule.name)).toEqual(["repo-size", "deny-all"]);
  });

  it("is empty when within quota", () => {
    expect(failedRules(explainQuota([tiny, small], used, "size:assets:all"))).toEqual([]);
  });
});
