import { describe, expect, it } from "vitest";
import { safeRedirect } from "./forms.js";

describe("safeRedirect", () => {
  it("accepts paths on this site", () => {
    expect(safeRedirect("/login/oauth/authorize?client_id=x&state=y")).toBe(
      "/login/oauth/authorize?client_id=x&state=y",
    );
    expect(safeRedirect("/")).toBe("/");
    const long = `/login/oauth/authorize?state=${"s".repeat(3000)}`;
    expect(safeRedirect(long)).toBe(long);
  });

  it("refuses other hosts and anything a browser could read as one", () => {
    for (const target of [
      "",
      "https://evil.example/",
      "//evil.example/",
      "/\\evil.example/",
      "/\\/evil.example",
      "javascript:alert(1)",
      "evil",
      "/a\nb",
      "/a\tb",
      `/${"a".repeat(4096)}`,
    ]) {
      expect(safeRedirect(target), JSON.stringify(target)).toBeUndefined();
    }
  });
});
