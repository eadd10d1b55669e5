import { describe, expect, it } from "vitest";
import { isReadableRef, isValidRefName } from "./ref-names.js";

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
      "a\u0000b",
      "a\nb",
      "a/./b",
      "./a",
    ]) {
      expect(isValidRefName(name), name).toBe(false);
    }
  });
});

describe("isReadableRef", () => {
  it("accepts HEAD and full names under refs/, however long, in components a file system can hold", () => {
    const long = `refs/heads/${Array.from({ length: 40 }, () => "x".repeat(255)).join("/")}`;
    for (const ref of ["HEAD", "refs/heads/main", "refs/tags/v1.0", long])
      expect(isReadableRef(ref), ref).toBe(true);
    // A component over 255 bytes cannot exist as a loose ref (git itself cannot create one).
    expect(isReadableRef(`refs/heads/${"x".repeat(256)}`)).toBe(false);
    expect(isReadableRef(`refs/heads/${"é".repeat(128)}`)).toBe(false);
  });

  it("refuses NUL, dot segments, ways out of refs/ and names outside it", () => {
    for (const ref of [
      "refs/heads/ma\u0000in",
      "refs/heads/./main",
      "refs/heads/a/./b",
      "refs/heads/../../config",
      "refs/heads/a/../b",
      "refs/heads//main",
      "refs/heads/main/",
      "config",
      "main",
      "../HEAD",
      "",
    ]) {
      expect(isReadableRef(ref), ref).toBe(false);
    }
  });
});
