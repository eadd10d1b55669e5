import { describe, expect, it } from "vitest";
import { QuotaError, UnrecognizedSubjectError } from "./errors.js";
import { canonicalSubject, isSubjectSpelling, parseSubject, sameSubject } from "./parse-subject.js";
import { SUBJECTS } from "./subject.js";

// The specification's table, verbatim, plus Forgejo's `none`.
const SPEC_VALUES = [
  "size:all",
  "size:repos:all",
  "size:repos:public",
  "size:repos:private",
  "sizeall",
  "sizelfs",
  "size:assets:all",
  "size:assets:attachments:all",
  "size:assets:attachments:issues",
  "size:assets:attachments:releases",
  "size:assets:artifacts",
  "size:assets:packages:all",
  "size:wiki",
];

describe("parseSubject", () => {
  it.each(SPEC_VALUES)("accepts the specification's value %s as written", (value) => {
    expect(parseSubject(value)).toEqual({ subject: value, spelling: value });
  });

  it("accepts none", () => {
    expect(parseSubject("none")).toEqual({ subject: "none", spelling: "none" });
  });

  it("knows exactly the specification's values and none as canonical subjects", () => {
    expect([...SUBJECTS].sort()).toEqual([...SPEC_VALUES, "none"].sort());
  });

  it.each([
    ["size:git:all", "sizeall"],
    ["size:git:lfs", "sizelfs"],
    ["size:assets:wiki", "size:wiki"],
  ])("accepts Forgejo's %s as an alias of %s and remembers the spelling", (alias, canonical) => {
    const parsed = parseSubject(alias);
    expect(parsed.spelling).toBe(alias);
    expect(parsed.subject).toBe(canonical);
    expect(sameSubject(parsed, canonical as never)).toBe(true);
    expect(canonicalSubject(parsed)).toBe(canonical);
  });

  it.each([
    "valid:false",
    "",
    "size",
    "SIZE:ALL",
    " size:all",
    "size:all ",
    "size:repos",
    "size:lfs",
    "wiki",
    "__proto__",
    "toString",
  ])("rejects %j with Forgejo's message", (value) => {
    const error = (() => {
      try {
        parseSubject(value);
      } catch (caught) {
        return caught;
      }
      throw new Error("parseSubject accepted a bad subject");
    })();
    expect(error).toBeInstanceOf(UnrecognizedSubjectError);
    expect(error).toBeInstanceOf(QuotaError);
    expect(error).toMatchObject({
      name: "UnrecognizedSubjectError",
      subject: value,
      message: `unrecognized quota limit subject: [subject: ${value}]`,
    });
  });

  it("gives the exact message of Forgejo's admin API test", () => {
    expect(() => parseSubject("valid:false")).toThrow(
      "unrecognized quota limit subject: [subject: valid:false]",
    );
  });
});

describe("isSubjectSpelling", () => {
  it("is true for every spelling and false for anything else", () => {
    for (const value of [...SPEC_VALUES, "none", "size:git:all", "size:git:lfs", "size:assets:wiki"]) {
      expect(isSubjectSpelling(value)).toBe(true);
    }
    for (const value of ["size:wiki:all", "", 42, null, undefined])
      expect(isSubjectSpelling(value)).toBe(false);
  });
});

describe("sameSubject and canonicalSubject", () => {
  it("compare subjects by meaning, not spelling", () => {
    expect(sameSubject("size:git:lfs", "sizelfs")).toBe(true);
    expect(sameSubject(parseSubject("size:assets:wiki"), parseSubject("size:wiki"))).toBe(true);
    expect(sameSubject("sizeall", "sizelfs")).toBe(false);
    expect(canonicalSubject("size:git:all")).toBe("sizeall");
  });

  it("throw the typed error for a string that is not a subject", () => {
    expect(() => canonicalSubject("size:nope" as never)).toThrow(UnrecognizedSubjectError);
  });
});
