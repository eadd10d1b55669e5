import { describe, expect, it } from "vitest";
import { compileGlob, GlobSyntaxError, globSteps, MAX_GLOB_LENGTH } from "./glob.js";

const m = (pattern: string, subject: string, options = {}) => compileGlob(pattern, options).matches(subject);

describe("globs without separators (Forgejo's glob.Compile(pattern))", () => {
  it("match * across slashes, ? one character, classes, alternatives and escapes", () => {
    expect(m("feature*", "feature/x")).toBe(true);
    expect(m("*", "")).toBe(true);
    expect(m("a?c", "a/c")).toBe(true);
    expect(m("a?c", "ac")).toBe(false);
    expect(m("v[0-9].*", "v3.x")).toBe(true);
    expect(m("v[!0-9]*", "v3")).toBe(false);
    expect(m("[abc]", "b")).toBe(true);
    expect(m("{main,release/*}", "release/1/2")).toBe(true);
    expect(m("{a,{b,c}d}x", "cdx")).toBe(true);
    expect(m("{a,{b,c}d}x", "ax")).toBe(true);
    expect(m("{a,{b,c}d}x", "dx")).toBe(false);
    expect(m("{,x}y", "y")).toBe(true);
    expect(m("\\*", "*")).toBe(true);
    expect(m("\\*", "a")).toBe(false);
    expect(m("main", "main2")).toBe(false);
  });

  it("read stray } and , as characters and refuse unclosed constructs", () => {
    expect(m("a}b", "a}b")).toBe(true);
    expect(m("a,b", "a,b")).toBe(true);
    expect(m("a]", "a]")).toBe(true);
    for (const bad of ["{a", "[ab", "a\\", "{a,{b}"]) {
      expect(() => compileGlob(bad)).toThrow(GlobSyntaxError);
    }
    expect(() => compileGlob("a".repeat(MAX_GLOB_LENGTH + 1))).toThrow(GlobSyntaxError);
  });

  it("compare code points, not UTF-16 units", () => {
    expect(m("?", "😀")).toBe(true);
    expect(m("a?b", "a😀b")).toBe(true);
  });
});

describe("globs with separators (gobwas/glob's separators)", () => {
  const path = { separators: "/" };
  it("keep * and ? within a segment and let ** cross", () => {
    expect(m("release/*", "release/v1", path)).toBe(true);
    expect(m("release/*", "release/v1/hotfix", path)).toBe(false);
    expect(m("release/**", "release/v1/hotfix", path)).toBe(true);
    expect(m("a?c", "a/c", path)).toBe(false);
    expect(m("**/*.go", "cmd/main.go", path)).toBe(true);
    expect(m("**/*.go", "main.go", path)).toBe(false);
  });

  it("stop at every separator given, ignoring case when asked (Forgejo's file patterns)", () => {
    const files = { separators: "./", ignoreCase: true };
    expect(m("*.lock", "YARN.LOCK", files)).toBe(true);
    expect(m("*.md", "a.b.md", files)).toBe(false);
    expect(m("**.md", "a.b.md", files)).toBe(true);
    expect(m("docs/**", "Docs/a/b.md", files)).toBe(true);
  });
});

describe("EditorConfig section globs", () => {
  const ec = { separators: "/", dialect: "editorconfig" as const };
  it("let **/ match no directory and read {x} without a comma literally", () => {
    expect(m("/**/*.js", "/a.js", ec)).toBe(true);
    expect(m("/**/*.js", "/x/y/a.js", ec)).toBe(true);
    expect(m("/src/**.md", "/src/docs/readme.md", ec)).toBe(true);
    expect(m("/{x}", "/{x}", ec)).toBe(true);
    expect(m("/*.{js,ts}", "/a.ts", ec)).toBe(true);
    expect(m("/[ab", "/[ab", ec)).toBe(true);
  });

  it("never match a numeric range (not supported)", () => {
    expect(m("/{0..99999}", "/5", ec)).toBe(false);
    expect(m("/{0..99999}", "/{0..99999}", ec)).toBe(false);
  });
});

describe("matching work", () => {
  it("grows with pattern × subject, not exponentially (a regular expression would take minutes)", () => {
    const pattern = `${"*a".repeat(40)}b`;
    const subject = "a".repeat(1000);
    const glob = compileGlob(pattern);
    const before = globSteps();
    expect(glob.matches(subject)).toBe(false);
    const steps = globSteps() - before;
    expect(steps).toBeLessThan(8 * (pattern.length + 1) * (subject.length + 1));
    expect(glob.matches(`${"a".repeat(100)}b`)).toBe(true);
  });

  it("is compiled once per pattern text", () => {
    expect(compileGlob("same*")).toBe(compileGlob("same*"));
    expect(compileGlob("same*")).not.toBe(compileGlob("same*", { separators: "/" }));
  });
});
