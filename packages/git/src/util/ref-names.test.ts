import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { isReadableRef, isValidBranchName, isValidRefName, isValidTagName } from "./ref-names.js";

/** Whether the installed git accepts `args` (`check-ref-format …`), run outside any repository. */
function gitAccepts(...args: string[]): boolean {
  return spawnSync("git", ["check-ref-format", ...args], { cwd: "/", stdio: "ignore" }).status === 0;
}

/** Names around every rule of git-check-ref-format(1), good and bad. */
const NAMES = [
  "main",
  "feature/x",
  "v1.2.3",
  "x@y",
  "@a",
  "a@",
  "{a}",
  "é",
  "FETCH_HEAD",
  "a/HEAD",
  "HEAD",
  "-x",
  "-",
  "a-",
  "a..b",
  "a..",
  "..",
  "a.lock",
  "a.lock/b",
  "a/b.lock",
  "a.locked",
  "a//b",
  "x@{y}",
  "@{-1}",
  "a.",
  "a/.",
  "a/./b",
  ".a",
  "a/.b",
  "/a",
  "a/",
  "a b",
  "a\tb",
  "a\u007fb",
  "a\u0001b",
  "a~1",
  "a^",
  "a:b",
  "a?",
  "a*",
  "a[",
  "a\\b",
  "refs/../x",
  "../../other.git/refs/heads/main",
  "..\\..\\other.git\\refs\\heads\\main",
];

describe("isValidRefName", () => {
  it("rejects a lone surrogate, which no file name can hold, and accepts a real astral character", () => {
    expect(isValidRefName("tag-\ud800")).toBe(false);
    expect(isValidBranchName("\udc00x")).toBe(false);
    expect(isValidTagName("\ud800")).toBe(false);
    expect(isValidRefName("release-\u{1F680}")).toBe(true);
  });

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

describe("the rules agree with the installed git", () => {
  it("isReadableRef(refs/heads/<name>) is `git check-ref-format refs/heads/<name>`", () => {
    for (const name of NAMES) {
      expect(isReadableRef(`refs/heads/${name}`), name).toBe(gitAccepts(`refs/heads/${name}`));
    }
  });

  it("isValidBranchName is `git check-ref-format --branch`, except the single @ (git's HEAD shorthand)", () => {
    expect(gitAccepts("--branch", "HEAD")).toBe(false);
    expect(gitAccepts("--branch", "-x")).toBe(false);
    for (const name of NAMES) expect(isValidBranchName(name), name).toBe(gitAccepts("--branch", name));
    expect(gitAccepts("--branch", "@")).toBe(true);
    expect(isValidBranchName("@")).toBe(false);
  });

  it("isValidTagName is git's check_tag_ref: the format of refs/tags/<name>, and neither HEAD nor -…", () => {
    for (const name of NAMES) {
      const git = gitAccepts(`refs/tags/${name}`) && name !== "HEAD" && !name.startsWith("-");
      expect(isValidTagName(name), name).toBe(git);
    }
    expect(isValidTagName("@")).toBe(false);
  });
});
