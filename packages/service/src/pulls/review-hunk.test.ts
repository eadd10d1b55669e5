import { describe, expect, it } from "vitest";
import { diffHunkOf, HunkCutter, quoteGitPath } from "./review-hunk.js";

const DIFF = [
  "diff --git a/lines.txt b/lines.txt",
  "index 1111111..2222222 100644",
  "--- a/lines.txt",
  "+++ b/lines.txt",
  "@@ -2,3 +2,4 @@",
  " 2",
  "+two and a half",
  " 3",
  " 4",
  "@@ -10,7 +11,7 @@",
  " 10",
  " 11",
  " 12",
  "-13",
  "+thirteen",
  " 14",
  " 15",
  " 16",
];
const HEADERS = "diff --git a/lines.txt b/lines.txt\n--- a/lines.txt\n+++ b/lines.txt";

function cut(line: number, old = false): string {
  const cutter = new HunkCutter(line, old);
  for (const lof of DIFF) if (!cutter.feed(lof)) break;
  return cutter.result();
}

describe("cutting the diff around a commented line (Forgejo's CutDiffAroundLine)", () => {
  it("keeps a short hunk up to the line as it is, with the file's headers", () => {
    expect(cut(3)).toBe(`${HEADERS}\n@@ -2,3 +2,4 @@\n 2\n+two and a half`);
  });

  it("keeps the last four lines of a longer hunk and recounts its header", () => {
    expect(cut(14)).toBe(`${HEADERS}\n@@ -11,3 +12,3 @@\n 11\n 12\n-13\n+thirteen`);
    expect(diffHunkOf(cut(14))).toBe("@@ -11,3 +12,3 @@\n 11\n 12\n-13\n+thirteen");
  });

  it("counts lines of the old side for a comment on it", () => {
    expect(diffHunkOf(cut(13, true))).toBe("@@ -10,7 +11,7 @@\n 10\n 11\n 12\n-13");
    expect(diffHunkOf(cut(14, true))).toBe("@@ -12,3 +13,3 @@\n 12\n-13\n+thirteen\n 14");
  });

  it("gives nothing for a line outside every hunk, or no line", () => {
    expect(cut(8)).toBe("");
    expect(cut(0)).toBe("");
    expect(diffHunkOf("")).toBe("");
  });
});

describe("git's quoting of paths in diff headers", () => {
  it("leaves plain names alone and quotes the others as git prints them", () => {
    expect(quoteGitPath("a/dir/file name.txt")).toBe("a/dir/file name.txt");
    expect(quoteGitPath('a/say "hi"\t.txt')).toBe('"a/say \\"hi\\"\\t.txt"');
    expect(quoteGitPath("b/café")).toBe('"b/caf\\303\\251"');
  });
});
