import { describe, expect, it } from "vitest";
import { InvalidUsageError, UnrecognizedSubjectError } from "./errors.js";
import { parseSubject } from "./parse-subject.js";
import { SUBJECTS } from "./subject.js";
import { type QuotaUsage, ZERO_USAGE } from "./usage.js";
import { usageOf } from "./usage-of.js";

// Forgejo models/quota/used_test.go TestQuotaUsedTotals (after the v12.0.4 fix: size:all counts
// repositories once).
const USED: QuotaUsage = {
  reposPublic: 2,
  reposPrivate: 3,
  lfs: 7,
  issueAttachments: 11,
  releaseAttachments: 13,
  artifacts: 17,
  packages: 19,
};

describe("usageOf", () => {
  it.each([
    ["size:repos:public", 2],
    ["size:repos:private", 3],
    ["size:repos:all", 5],
    ["sizelfs", 7],
    ["size:git:lfs", 7],
    ["sizeall", 12],
    ["size:git:all", 12],
    ["size:assets:attachments:issues", 11],
    ["size:assets:attachments:releases", 13],
    ["size:assets:attachments:all", 24],
    ["size:assets:artifacts", 17],
    ["size:assets:packages:all", 19],
    ["size:assets:all", 60],
    ["size:all", 72],
    ["size:wiki", 0],
    ["size:assets:wiki", 0],
    ["none", 0],
  ] as const)("computes %s as %i (Forgejo's TestQuotaUsedTotals)", (subject, expected) => {
    expect(usageOf(USED, subject)).toBe(expected);
  });

  it("accepts a parsed subject", () => {
    expect(usageOf(USED, parseSubject("size:git:all"))).toBe(12);
  });

  it("is zero everywhere for an owner that stores nothing", () => {
    for (const subject of SUBJECTS) expect(usageOf(ZERO_USAGE, subject)).toBe(0);
  });

  it("is exact up to Number.MAX_SAFE_INTEGER bytes in total", () => {
    const big = { ...ZERO_USAGE, reposPublic: Number.MAX_SAFE_INTEGER - 7, packages: 7 };
    expect(usageOf(big, "size:all")).toBe(Number.MAX_SAFE_INTEGER);
  });

  it.each([
    ["reposPublic", -1],
    ["lfs", 1.5],
    ["packages", Number.NaN],
    ["artifacts", Number.POSITIVE_INFINITY],
    ["issueAttachments", 2 ** 53],
    ["releaseAttachments", "12"],
    ["reposPrivate", undefined],
  ])("rejects counter %s = %s", (counter, value) => {
    const usage = { ...USED, [counter]: value } as unknown as QuotaUsage;
    expect(() => usageOf(usage, "size:all")).toThrow(InvalidUsageError);
    expect(() => usageOf(usage, "size:all")).toThrow(`invalid quota usage counter ${counter}`);
  });

  it("rejects counters whose total is not a safe integer", () => {
    const usage = { ...ZERO_USAGE, reposPublic: Number.MAX_SAFE_INTEGER, lfs: 1 };
    expect(() => usageOf(usage, "sizelfs")).toThrow(InvalidUsageError);
    expect(() => usageOf(usage, "sizelfs")).toThrow("quota usage total");
  });

  it("rejects unknown subjects", () => {
    expect(() => usageOf(USED, "size:git" as never)).toThrow(UnrecognizedSubjectError);
  });
});
