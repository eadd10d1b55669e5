import { describe, expect, it } from "vitest";
import { usernameProblem } from "./user.js";

describe("usernameProblem", () => {
  it("accepts Forgejo-valid names", () => {
    for (const ok of ["alice", "a", "Bob_the.builder-2", "x".repeat(40)])
      expect(usernameProblem(ok)).toBeNull();
  });

  it("explains invalid, reserved and pattern-reserved names like Forgejo", () => {
    expect(usernameProblem("-lead")).toMatch(/^name is invalid \[-lead\]/);
    expect(usernameProblem("a..b")).toMatch(/^name is invalid/);
    expect(usernameProblem("x".repeat(41))).toMatch(/^name is invalid/);
    expect(usernameProblem("Admin")).toBe("name is reserved [name: Admin]");
    expect(usernameProblem("bob.keys")).toBe("name pattern is not allowed [pattern: *.keys]");
  });
});
