import { describe, expect, it } from "vitest";
import { evaluateRefUpdate } from "./evaluate-push.js";
import { ZERO_SHA } from "./push-policy.js";
import { compileTagPattern, mayControlTag, TagPatternError, tagPatternMatches } from "./tag-rules.js";

const A = "a".repeat(40);
const facts = {
  isForcePush: async () => false,
  changedFiles: async () => [],
  firstUnsignedCommit: async () => undefined,
};

describe("tag patterns (gobwas/glob without separators)", () => {
  it("matches like Forgejo's globs", () => {
    expect(tagPatternMatches("v*", "v1.0")).toBe(true);
    expect(tagPatternMatches("v*", "release/v1")).toBe(false);
    expect(tagPatternMatches("*", "a/b/c")).toBe(true);
    expect(tagPatternMatches("v?.0", "v1.0")).toBe(true);
    expect(tagPatternMatches("v[0-9].*", "v3.x")).toBe(true);
    expect(tagPatternMatches("v[!0-9]*", "v3")).toBe(false);
    expect(tagPatternMatches("{a,b}-*", "b-1")).toBe(true);
    expect(tagPatternMatches("v1.0", "v1.0")).toBe(true);
    expect(tagPatternMatches("v1.0", "v1.0.1")).toBe(false);
    expect(tagPatternMatches("\\*", "*")).toBe(true);
  });

  it("answers at once for patterns that make regular expressions backtrack (the test would time out)", () => {
    expect(tagPatternMatches("*a*a*a*a*a*a*a*a*b", "a".repeat(255))).toBe(false);
  });

  it("refuses regular expressions and broken patterns", () => {
    expect(() => compileTagPattern("/v.*/")).toThrow(TagPatternError);
    expect(() => compileTagPattern("v[1")).toThrow(TagPatternError);
    expect(() => compileTagPattern("{a")).toThrow(TagPatternError);
    // A broken stored rule protects every tag rather than none.
    expect(tagPatternMatches("v[1", "anything")).toBe(true);
  });

  it("allows a tag when one matching rule allows the user (IsUserAllowedToControlTag)", () => {
    expect(mayControlTag([], "v1")).toBe(true);
    expect(mayControlTag([{ pattern: "v*", allowed: false }], "v1")).toBe(false);
    expect(mayControlTag([{ pattern: "v*", allowed: false }], "x1")).toBe(true);
    expect(
      mayControlTag(
        [
          { pattern: "v*", allowed: false },
          { pattern: "v1*", allowed: true },
        ],
        "v1",
      ),
    ).toBe(true);
  });

  it("refuses creating, moving and deleting a protected tag at push", async () => {
    const policy = { branchRules: [], tagRules: [{ pattern: "v*", allowed: false }] };
    for (const [oldSha, newSha] of [
      [ZERO_SHA, A],
      [A, "b".repeat(40)],
      [A, ZERO_SHA],
    ] as const) {
      expect(await evaluateRefUpdate(policy, { ref: "refs/tags/v1", oldSha, newSha }, facts)).toEqual({
        allowed: false,
        message: "Tag v1 is protected",
      });
    }
    expect(
      await evaluateRefUpdate(policy, { ref: "refs/tags/x1", oldSha: ZERO_SHA, newSha: A }, facts),
    ).toEqual({
      allowed: true,
    });
  });
});
