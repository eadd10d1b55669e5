import { describe, expect, it } from "vitest";
import { branchMatches, compileBranchGlob } from "./branch-glob.js";

describe("branch_filter as Forgejo's gobwas/glob (no separators)", () => {
  it("matches as Forgejo", () => {
    const cases: [string, string, boolean][] = [
      ["", "anything", true],
      ["*", "feature/x", true],
      ["main", "main", true],
      ["main", "main2", false],
      ["release/*", "release/1.0", true],
      ["release/*", "release/1/hot", true], // * crosses / (picomatch would not)
      ["release/*", "releases/1", false],
      ["{main,dev}", "dev", true],
      ["{main,release/*}", "release/2", true],
      ["{main,release/*}", "feature", false],
      ["v?", "v1", true],
      ["v?", "v10", false],
      ["[abc]x", "bx", true],
      ["[!abc]x", "bx", false],
      ["[a-c]x", "cx", true],
      ["a\\*b", "a*b", true],
      ["a\\*b", "axb", false],
      ["a.b", "axb", false],
      // `}` and `,` outside braces are plain characters, as gobwas/glob's lexer reads them.
      ["a}b", "a}b", true],
      ["a,b", "a,b", true],
    ];
    for (const [filter, branch, expected] of cases)
      expect(branchMatches(filter, branch), `${filter} ~ ${branch}`).toBe(expected);
  });

  it("refuses invalid patterns with 422", () => {
    for (const bad of ["{a,b", "[ab", "a\\"])
      expect(() => compileBranchGlob(bad)).toThrow(/Invalid branch filter/);
  });
});
