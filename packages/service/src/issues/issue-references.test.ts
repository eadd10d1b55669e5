import { describe, expect, it } from "vitest";
import { DEFAULT_KEYWORDS, findIssueReferences, findMarkdownReferences } from "./issue-references.js";

const find = (text: string) => findIssueReferences(text, DEFAULT_KEYWORDS);

describe("issue references", () => {
  it("finds #N, !N and owner/repo#N where words start and end, with the keyword before each", () => {
    expect(find("Fixes #1, closes: Owner/Repo#2 and see #3. Resolved #4")).toEqual([
      { index: 1, action: "closes" },
      { index: 3, action: "none" },
      { index: 4, action: "closes" },
      { owner: "owner", name: "repo", index: 2, action: "closes" },
    ]);
    expect(find("Reopens !5\n(fix #6)")).toEqual([
      { index: 5, action: "reopens" },
      { index: 6, action: "closes" },
    ]);
  });

  it("needs the keyword as a word, followed by one space (and at most a colon)", () => {
    expect(find("prefix#1 a#2 fixes  #3 unfixes #4 fixes:#5 x-fixes #6")).toEqual([
      { index: 3, action: "none" },
      { index: 4, action: "none" },
      { index: 6, action: "none" },
    ]);
    expect(find("#7x #8")).toEqual([{ index: 8, action: "none" }]);
  });

  it("takes configured keywords, letters of any script, case-insensitively", () => {
    const keywords = { close: ["Schließt"], reopen: [] };
    expect(findIssueReferences("SCHLIESST #1 schließt #2 fixes #3", keywords).map((r) => r.action)).toEqual([
      "none",
      "closes",
      "none",
    ]);
  });

  it("reads no code in Markdown", () => {
    const body = "Fixes #1\n\n```\nfixes #2\n```\n    fixes #3\nand `fixes #4` but ``a ` fixes #5`` fixes #6";
    expect(findMarkdownReferences(body, DEFAULT_KEYWORDS)).toEqual([
      { index: 1, action: "closes" },
      { index: 6, action: "closes" },
    ]);
  });

  it("reads hostile texts in one pass", () => {
    const long = `${"a".repeat(200_000)}/${"b".repeat(200_000)}#1 ${"fixes ".repeat(20_000)}#2`;
    expect(find(long)).toEqual([{ index: 2, action: "closes" }]);
    const ticks = Array.from({ length: 5000 }, (_, i) => "`".repeat((i % 50) + 1)).join(" x ");
    expect(findMarkdownReferences(`${ticks} fixes #9`, DEFAULT_KEYWORDS)).toEqual([
      { index: 9, action: "closes" },
    ]);
  });
});
