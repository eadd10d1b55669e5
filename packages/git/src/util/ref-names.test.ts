import { describe, expect, it } from "vitest";
import { isValidRefName } from "./ref-names.js";

describe("isValidRefName", () => {
  it("accepts ordinary branch and tag names", () => {
    for (const name of ["main", "feature/x", "v1.2.3", "release-2024_01", "a/b/c"])
      expect(isValidRefName(name)).toBe(true);
  });

  it("rejects what git check-ref-format rejects", () => {
    for (const name of [
      "",
      "a..b",
      "a b",
      "a~1",
      "a^",
      "a:b",
      "a?",
      "a*",
      "a[",
      "a\\b",
      "-x",
      "/x",
      "x/",
      "x.",
      "x.lock",
      ".x",
      "a/.b",
      "@",
      "a@{1}",
      "a//b",
    ]) {
      expect(isValidRefName(name), name).toBe(false);
    }
  });
});
