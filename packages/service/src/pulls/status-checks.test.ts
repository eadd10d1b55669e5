import { describe, expect, it } from "vitest";
import { judgeStatusChecks } from "./status-checks.js";

const status = (context: string, state: string) => ({ context, state });

describe("required status checks", () => {
  it("passes when every pattern matches only successful contexts", () => {
    expect(judgeStatusChecks(["ci/*"], [status("ci/a/b", "success"), status("other", "error")])).toEqual({
      passed: true,
      problems: [],
    });
  });

  it("names each missing pattern and each context that is not success", () => {
    expect(
      judgeStatusChecks(
        ["ci/*", "lint", "docs"],
        [status("ci/a", "success"), status("ci/b", "warning"), status("lint", "pending")],
      ),
    ).toEqual({ passed: false, problems: ["ci/b: warning", "lint: pending", "docs: missing"] });
  });

  it("treats a pattern it cannot compile as matching nothing", () => {
    expect(judgeStatusChecks(["ci/[x"], [status("ci/[x", "success")]).passed).toBe(false);
  });

  it("matches long hostile patterns in linear time without failing", () => {
    const pattern = `${"*a".repeat(120)}b`;
    expect(judgeStatusChecks([pattern], [status("a".repeat(255), "success")]).problems).toEqual([
      `${pattern}: missing`,
    ]);
  });

  it("refuses, without matching them, patterns whose matching would exceed the verdict's budget", () => {
    const hostile = (i: number) => `${"{a,b}".repeat(6)}${"*a".repeat(110)}${i}`.slice(0, 255);
    const contexts = Array.from({ length: 256 }, (_, i) => status(`${"a".repeat(250)}${i}`, "success"));
    const verdict = judgeStatusChecks(
      [...Array.from({ length: 49 }, (_, i) => hostile(i)), "a".repeat(250) + 7],
      contexts,
    );
    expect(verdict.passed).toBe(false);
    expect(verdict.problems).toEqual(
      Array.from({ length: 49 }, (_, i) => `${hostile(i)}: too complex to check`),
    );
  });

  it("matches plain patterns and modest globs over many contexts within the budget", () => {
    const contexts = Array.from({ length: 256 }, (_, i) => status(`ci/job-${i}`, "success"));
    const patterns = [...Array.from({ length: 40 }, (_, i) => `ci/job-${i}`), "ci/*", "ci/job-{1,2}?"];
    const verdict = judgeStatusChecks(patterns, contexts);
    expect(verdict).toEqual({ passed: true, problems: [] });
  });

  it("without patterns, needs statuses, all of them success", () => {
    expect(judgeStatusChecks([], []).problems).toEqual(["no status reported"]);
    expect(judgeStatusChecks([" "], [status("x", "failure"), status("y", "success")]).problems).toEqual([
      "x: failure",
    ]);
    expect(judgeStatusChecks([], [status("y", "success")]).passed).toBe(true);
  });
});
