import { describe, expect, it } from "vitest";
import { parseFilePatterns } from "./file-patterns.js";

describe("parseFilePatterns", () => {
  it("splits on ; and trims, dropping empty globs", () => {
    expect(parseFilePatterns(" *.lock ; docs/** ;; ").globs).toEqual(["*.lock", "docs/**"]);
    expect(parseFilePatterns("").globs).toEqual([]);
    expect(parseFilePatterns(undefined).globs).toEqual([]);
  });

  it("matches case-insensitively with * inside one directory", () => {
    const patterns = parseFilePatterns("*.LOCK;docs/**;.github/*");
    expect(patterns.matches("yarn.lock")).toBe(true);
    expect(patterns.matches("sub/yarn.lock")).toBe(false);
    expect(patterns.matches("DOCS/a/b.md")).toBe(true);
    expect(patterns.matches(".github/ci.yml")).toBe(true);
    expect(patterns.matches("src/index.ts")).toBe(false);
  });
});
