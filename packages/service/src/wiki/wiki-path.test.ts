import { describe, expect, it } from "vitest";
import {
  gitPathToWebPath,
  queryEscape,
  reservedSegment,
  titleToWebPath,
  webPathFromRequest,
  webPathToGitPath,
  webPathToTitle,
} from "./wiki-path.js";

describe("wiki names (Forgejo's wiki_path.go)", () => {
  it("maps titles to web paths and files", () => {
    expect(titleToWebPath("Home Page")).toBe("Home-Page");
    expect(webPathToGitPath("Home-Page")).toBe("Home-Page.md");
    expect(titleToWebPath("2000-01-02 meeting")).toBe("2000-01-02+meeting.-");
    expect(webPathToGitPath("2000-01-02+meeting.-")).toBe("2000-01-02 meeting.-.md");
    expect(titleToWebPath("100% Free")).toBe("100%25-Free");
    expect(titleToWebPath("a/b")).toBe("a%2Fb");
    expect(titleToWebPath("  ")).toBe("unnamed");
    expect(titleToWebPath("..")).toBe("unnamed");
    expect(titleToWebPath("notes.md")).toBe("notes.md.-");
  });

  it("maps files back to web paths and titles", () => {
    expect(gitPathToWebPath("Home-Page.md")).toBe("Home-Page");
    expect(gitPathToWebPath("2000-01-02 meeting.-.md")).toBe("2000-01-02+meeting.-");
    expect(gitPathToWebPath("Unescaped File.md")).toBe("Unescaped-File");
    expect(gitPathToWebPath("image.png")).toBeUndefined();
    expect(webPathToTitle("Home-Page")).toBe("Home Page");
    expect(webPathToTitle("2000-01-02+meeting.-")).toBe("2000-01-02 meeting");
    expect(webPathToTitle("100%25-Free")).toBe("100% Free");
    for (const title of ["Home", "A page", "x-y z", "100% Free", "ünïcödé page", "a+b", "q?&=#"]) {
      const web = titleToWebPath(title);
      expect(webPathToTitle(web)).toBe(title);
      expect(gitPathToWebPath(webPathToGitPath(web))).toBe(web);
    }
  });

  it("reads request paths like Forgejo", () => {
    expect(webPathFromRequest("Page-With-Spaced+Name")).toBe("Page-With-Spaced+Name");
    expect(webPathToGitPath("Page-With-Spaced+Name")).toBe("Page-With-Spaced-Name.md");
    expect(webPathFromRequest("../../etc/passwd")).toBe("etc%2Fpasswd");
    expect(webPathToGitPath("Raw File.md")).toBe("Raw File.md");
  });

  it("knows the reserved names and escapes as Go does", () => {
    expect(reservedSegment(titleToWebPath("_pages"))).toBe("_pages");
    expect(reservedSegment(titleToWebPath("raw"))).toBe("raw");
    expect(reservedSegment(titleToWebPath("Raw"))).toBeUndefined();
    expect(queryEscape("a b!*'()~")).toBe("a+b%21%2A%27%28%29~");
  });
});
