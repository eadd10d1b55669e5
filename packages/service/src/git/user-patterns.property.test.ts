import { globSteps } from "@kiln/git";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { branchMatches } from "../webhooks/branch-glob.js";
import { HostMatcher } from "../webhooks/host-matcher.js";
import { editorconfigProps, parseEditorconfig } from "./editorconfig.js";

/**
 * The service layer's matchers of user-supplied patterns (webhook branch filters, EditorConfig
 * sections, allowed webhook hosts), driven with pathological patterns against 1,000-character
 * subjects: the work of each match (automaton steps, not time) stays within a fixed budget
 * proportional to pattern length × subject length.
 */

const budget = (patternLength: number, subjectLength: number) =>
  8 * (patternLength + 8) * (subjectLength + 2);

const SPECIAL = [
  "*",
  "**",
  "?",
  "a",
  "b",
  "/",
  ".",
  "{",
  "}",
  ",",
  "[",
  "]",
  "!",
  "-",
  "\\",
  "[a-z]",
  "{a,",
  "*a",
];
const pattern = fc
  .array(fc.constantFrom(...SPECIAL), { minLength: 1, maxLength: 120 })
  .map((parts) => parts.join(""));
const KILLERS = [
  `${"*a".repeat(40)}b`,
  `${"**a".repeat(30)}b`,
  `${"{a,*a}".repeat(20)}b`,
  `${"[a-z]*".repeat(30)}b`,
  `${"**/*a".repeat(20)}b`,
];
const SUBJECTS = ["a".repeat(1000), "a/".repeat(500), "a.".repeat(500)];
const subject = fc.oneof(
  fc.constantFrom(...SUBJECTS),
  fc
    .array(fc.constantFrom("a", "b", "/", ".", "-"), { minLength: 1000, maxLength: 1000 })
    .map((chars) => chars.join("")),
);

const matchers: readonly [string, (p: string, s: string) => unknown][] = [
  ["webhook branch filters", branchMatches],
  ["EditorConfig sections", (p, s) => editorconfigProps(parseEditorconfig(`[${p}]\ncharset = x`), s)],
  // The list is split at commas; the address is no IP, so only the host pattern decides.
  ["allowed webhook hosts", (p, s) => new HostMatcher(p.replaceAll(",", "")).allows(s, "")],
];

function stepsOf(run: () => unknown): number {
  const before = globSteps();
  run();
  return globSteps() - before;
}

describe("every glob matcher of the service layer", () => {
  for (const [name, match] of matchers) {
    it(`${name}: crafted and generated patterns within the work budget`, () => {
      for (const p of KILLERS)
        for (const s of SUBJECTS) {
          const steps = stepsOf(() => match(p, s));
          expect(steps).toBeGreaterThan(0);
          expect(steps).toBeLessThanOrEqual(budget(p.length, s.length));
        }
      fc.assert(
        fc.property(pattern, subject, (p, s) => {
          expect(stepsOf(() => match(p, s))).toBeLessThanOrEqual(budget(p.length, s.length));
        }),
        { numRuns: 100, seed: 28 },
      );
    });
  }
});
