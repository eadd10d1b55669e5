import { describe, expect, it } from "vitest";
import { MAX_TEMPLATE_GLOBS, parseTemplateGlobs } from "./template-content.js";

describe(".forgejo/template globs", () => {
  const matches = (globs: string, path: string) => parseTemplateGlobs(globs).some((m) => m(path));

  it("match as Forgejo's: ** crosses directories, * does not, dot files included", () => {
    expect(matches("*.md", "README.md")).toBe(true);
    expect(matches("*.md", "docs/README.md")).toBe(false);
    expect(matches("src/**", "src/a/b.go")).toBe(true);
    expect(matches("**/*.go", "cmd/main.go")).toBe(true);
    expect(matches(".github/**", ".github/workflows/ci.yml")).toBe(true);
    expect(matches("# a comment\n\n", "README.md")).toBe(false);
  });

  it("match crafted globs on long paths without backtracking (the test would time out)", () => {
    const crafted = `${"*a".repeat(30)}b`;
    expect(matches(crafted, "a".repeat(5000))).toBe(false);
    expect(matches(crafted, `${"a".repeat(60)}b`)).toBe(true);
    expect(matches("{a,b}{c,d}?x", "bdzx")).toBe(true);
    // Extglobs are plain characters in gobwas/glob: `+(a|aa)` matches only itself.
    expect(matches("+(a|aa)", "aa")).toBe(false);
    expect(matches("a?c", "a/c")).toBe(false);
  });

  it("count at most the first 100 globs", () => {
    const many = Array.from({ length: MAX_TEMPLATE_GLOBS + 5 }, (_, i) => `f${i}.txt`).join("\n");
    expect(parseTemplateGlobs(many)).toHaveLength(MAX_TEMPLATE_GLOBS);
    expect(matches(many, `f${MAX_TEMPLATE_GLOBS + 1}.txt`)).toBe(false);
  });
});
