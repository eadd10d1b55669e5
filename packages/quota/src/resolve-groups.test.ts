import { describe, expect, it } from "vitest";
import { group, rule, usage } from "../test/builders.js";
import { isWithinQuota } from "./evaluate.js";
import { BUILTIN_GROUP_NAME, BUILTIN_RULE_NAME, builtinGroup, resolveGroups } from "./resolve-groups.js";
import { SUBJECTS } from "./subject.js";

const mine = group("mine", rule("r1", 10, "size:all"));
const defaultA = group("default-a", rule("r2", 20, "size:all"));
const defaultB = group("default-b", rule("r3", 30, "size:all"));
const other = group("other", rule("r4", 40, "size:all"));
const known = [defaultA, defaultB, other, mine];

describe("resolveGroups", () => {
  it("uses the assigned groups when there are any, ignoring the defaults", () => {
    expect(
      resolveGroups({
        assigned: [mine],
        defaultGroupNames: ["default-a"],
        knownGroups: known,
        defaultTotal: 0,
      }),
    ).toEqual({ source: "assigned", groups: [mine] });
  });

  it("uses the default groups that exist when none is assigned, in configuration order", () => {
    expect(
      resolveGroups({
        assigned: [],
        defaultGroupNames: ["default-b", "missing", "default-a", "default-b"],
        knownGroups: known,
      }),
    ).toEqual({ source: "default-groups", groups: [defaultB, defaultA] });
  });

  it("falls back to the built-in group when no default group exists", () => {
    expect(
      resolveGroups({ assigned: [], defaultGroupNames: ["missing"], knownGroups: known, defaultTotal: 2048 }),
    ).toEqual({
      source: "builtin",
      groups: [
        {
          name: BUILTIN_GROUP_NAME,
          rules: [{ name: BUILTIN_RULE_NAME, limit: 2048, subjects: ["size:all"] }],
        },
      ],
    });
  });

  it("makes the built-in group unlimited by default", () => {
    const resolved = resolveGroups({ assigned: [], defaultGroupNames: [], knownGroups: [] });
    expect(resolved.groups).toEqual([builtinGroup(-1)]);
    expect(builtinGroup()).toEqual(builtinGroup(-1));
    expect(builtinGroup().rules[0]!.limit).toBe(-1);
  });

  it("lets TOTAL limit every subject but none and the untracked wiki (Forgejo's TestQuotaDefaultGroup)", () => {
    const used = usage({ reposPublic: 2048 });
    const resolved = (total: number) =>
      resolveGroups({ assigned: [], defaultGroupNames: [], knownGroups: [], defaultTotal: total }).groups;
    for (const subject of SUBJECTS) {
      expect(isWithinQuota(resolved(-1), used, subject)).toBe(true);
      expect(isWithinQuota(resolved(1024 * 1024), used, subject)).toBe(true);
      expect(isWithinQuota(resolved(1024), used, subject)).toBe(
        subject === "none" || subject === "size:wiki",
      );
    }
  });
});
