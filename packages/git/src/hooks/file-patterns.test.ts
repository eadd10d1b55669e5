import { describe, expect, it } from "vitest";
import { globSteps } from "../glob/glob.js";
import {
  filePatternsProblem,
  MAX_FILE_PATTERN_LENGTH,
  MAX_FILE_PATTERNS,
  parseFilePatterns,
} from "./file-patterns.js";

describe("parseFilePatterns", () => {
  it("splits on ; and trims, dropping empty globs", () => {
    expect(parseFilePatterns(" *.lock ; docs/** ;; ").globs).toEqual(["*.lock", "docs/**"]);
    expect(parseFilePatterns("").globs).toEqual([]);
    expect(parseFilePatterns(undefined).globs).toEqual([]);
  });

  it("matches case-insensitively with * and ? stopping at / and . (Forgejo's separators)", () => {
    const patterns = parseFilePatterns("*.LOCK;docs/**;.github/*.yml;[");
    expect(patterns.matches("yarn.lock")).toBe(true);
    expect(patterns.matches("sub/yarn.lock")).toBe(false);
    expect(patterns.matches("DOCS/a/b.md")).toBe(true);
    expect(patterns.matches(".github/ci.yml")).toBe(true);
    expect(patterns.matches(".github/ci.test.yml")).toBe(false);
    expect(patterns.matches("src/index.ts")).toBe(false);
  });

  it("is compiled once per list", () => {
    expect(parseFilePatterns("a;b")).toBe(parseFilePatterns("a;b"));
  });

  it("names the limit a list breaks, and counts only what the limits allow of a stored one", () => {
    const many = Array.from({ length: MAX_FILE_PATTERNS + 1 }, (_, i) => `f${i}`).join(";");
    expect(filePatternsProblem(many)).toMatch(`at most ${MAX_FILE_PATTERNS} patterns`);
    const long = "a".repeat(MAX_FILE_PATTERN_LENGTH + 1);
    expect(filePatternsProblem(long)).toMatch(`at most ${MAX_FILE_PATTERN_LENGTH} characters`);
    expect(filePatternsProblem("a;b")).toBeUndefined();
    expect(parseFilePatterns(many).globs).toHaveLength(MAX_FILE_PATTERNS);
    expect(parseFilePatterns(many).matches(`f${MAX_FILE_PATTERNS}`)).toBe(false);
  });

  it("matches a crafted pattern against a long path in bounded work", () => {
    const patterns = parseFilePatterns(`${"*a".repeat(15)}b`);
    const before = globSteps();
    expect(patterns.matches("a".repeat(1000))).toBe(false);
    expect(globSteps() - before).toBeLessThan(100_000);
  });
});
