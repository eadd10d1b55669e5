import { describe, expect, it } from "vitest";
import { parseDiff, unquoteGitPath } from "./diff-parse.js";

const DIFF = `diff --git a/README.md b/README.md
index 1111111..2222222 100644
--- a/README.md
+++ b/README.md
@@ -1,3 +1,3 @@ intro
 one
-two
+TWO
 three
\\ No newline at end of file
diff --git a/old.txt b/new.txt
similarity index 90%
rename from old.txt
rename to new.txt
diff --git a/logo.png b/logo.png
new file mode 100644
index 0000000..3333333
Binary files /dev/null and b/logo.png differ
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 4444444..0000000
--- a/gone.txt
+++ /dev/null
@@ -1 +0,0 @@
-bye
diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"
old mode 100644
new mode 100755
`;

describe("parseDiff", () => {
  it("reads files, statuses, hunks with both sides' line numbers, renames, binaries and modes", () => {
    const diff = parseDiff(DIFF);
    expect(diff.files.map((f) => [f.name, f.status, f.oldName ?? ""])).toEqual([
      ["README.md", "modified", ""],
      ["new.txt", "renamed", "old.txt"],
      ["logo.png", "added", ""],
      ["gone.txt", "deleted", ""],
      ["café.txt", "modified", ""],
    ]);
    const [readme] = diff.files;
    expect(readme?.hunks[0]).toMatchObject({ header: "@@ -1,3 +1,3 @@", section: "intro", oldStart: 1 });
    expect(readme?.hunks[0]?.lines).toEqual([
      { kind: "context", text: "one", oldLine: 1, newLine: 1 },
      { kind: "del", text: "two", oldLine: 2 },
      { kind: "add", text: "TWO", newLine: 2 },
      { kind: "context", text: "three", oldLine: 3, newLine: 3 },
      { kind: "no-newline", text: "No newline at end of file" },
    ]);
    expect(diff.files[2]?.binary).toBe(true);
    expect(diff.files[4]?.modeChange).toEqual({ from: "100644", to: "100755" });
    expect([diff.additions, diff.deletions, diff.incomplete]).toEqual([1, 2, false]);
  });

  it("drops files and lines past the bounds and says so, still counting what changed", () => {
    const many = Array.from(
      { length: 5 },
      (_, i) => `diff --git a/f${i} b/f${i}\n@@ -0,0 +1,3 @@\n+a\n+b\n+c`,
    ).join("\n");
    const diff = parseDiff(many, { maxFiles: 3, maxLines: 2, maxLineCharacters: 10 });
    expect(diff.files).toHaveLength(3);
    expect(diff.incomplete).toBe(true);
    expect(diff.files[0]?.hunks[0]?.lines).toHaveLength(2);
    expect(diff.files[0]?.incomplete).toBe(true);
    expect(diff.files[0]?.additions).toBe(3);
    const long = parseDiff(`diff --git a/m b/m\n@@ -1 +1 @@\n+${"x".repeat(11)}`, {
      maxFiles: 3,
      maxLines: 2,
      maxLineCharacters: 10,
    });
    expect(long.files[0]?.incomplete).toBe(true);
    expect(long.files[0]?.hunks[0]?.lines).toEqual([]);
  });

  it("undoes git's quoting of paths", () => {
    expect(unquoteGitPath('"a/tab\\there"')).toBe("a/tab\there");
    expect(unquoteGitPath("plain name")).toBe("plain name");
  });
});
