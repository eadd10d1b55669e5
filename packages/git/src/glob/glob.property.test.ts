import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseTemplateGlobs } from "../disk/template-content.js";
import { ruleMatchesBranch } from "../hooks/branch-rules.js";
import { parseFilePatterns } from "../hooks/file-patterns.js";
import { tagPatternMatches } from "../hooks/tag-rules.js";
import { compileGlob, globSteps } from "./glob.js";

/**
 * Every matcher of user-supplied patterns in this package, driven with pathological patterns
 * against 1,000-character subjects: the work each match takes (counted in automaton steps, not
 * time) stays within a fixed budget proportional to pattern length × subject length, where a
 * backtracking regular expression would take exponential time.
 */

/** Steps one match may take: a few per automaton state (at most two per pattern character) per subject character. */
const budget = (patternLength: number, subjectLength: number) =>
  8 * (patternLength + 2) * (subjectLength + 1);

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

/** Patterns known to make backtracking matchers explode. */
const KILLERS = [
  `${"*a".repeat(40)}b`,
  `${"**a".repeat(30)}b`,
  `${"?*".repeat(40)}b`,
  `${"{a,*a}".repeat(20)}b`,
  `${"{".repeat(30)}a${",a}".repeat(30)}*b`,
  `${"[a-z]*".repeat(30)}b`,
  `${"*/".repeat(40)}b`,
  `${"*.".repeat(40)}b`,
  `${"**/*a".repeat(20)}b`,
];

const SUBJECTS = [
  "a".repeat(1000),
  "a/".repeat(500),
  "a.".repeat(500),
  `${"a".repeat(999)}c`,
  "ab/.".repeat(250),
];
const subject = fc.oneof(
  fc.constantFrom(...SUBJECTS),
  fc
    .array(fc.constantFrom("a", "b", "/", ".", "-", "{", "*"), { minLength: 1000, maxLength: 1000 })
    .map((chars) => chars.join("")),
);

/** Runs `match` and asserts the steps it took stay within the budget; resolves with them. */
function withinBudget(patternLength: number, subjectText: string, match: () => unknown): number {
  const before = globSteps();
  match();
  const steps = globSteps() - before;
  expect(steps).toBeLessThanOrEqual(budget(patternLength, subjectText.length));
  return steps;
}

describe("every glob matcher of the git package, with pathological patterns and 1,000-character subjects", () => {
  const matchers: readonly [string, (p: string, s: string) => unknown][] = [
    ["compileGlob without separators", (p, s) => compileGlob(p).matches(s)],
    ["compileGlob with / and .", (p, s) => compileGlob(p, { separators: "./", ignoreCase: true }).matches(s)],
    [
      "compileGlob, EditorConfig dialect",
      (p, s) => compileGlob(p, { separators: "/", dialect: "editorconfig" }).matches(s),
    ],
    ["tag protection patterns", tagPatternMatches],
    ["branch protection rule names", ruleMatchesBranch],
    ["protected file patterns", (p, s) => parseFilePatterns(p).matches(s)],
    ["template globs", (p, s) => parseTemplateGlobs(p).some((m) => m(s))],
  ];

  for (const [name, match] of matchers) {
    it(`${name}: crafted patterns`, () => {
      for (const p of KILLERS) {
        for (const s of SUBJECTS) {
          let refused = false;
          const steps = withinBudget(p.length, s, () => {
            try {
              match(p, s);
            } catch {
              // A pattern a use refuses costs no matching at all.
              refused = true;
            }
          });
          // The match really went through the counted automaton (no other matcher hides behind it).
          if (!refused) expect(steps).toBeGreaterThan(0);
        }
      }
    });

    it(`${name}: generated patterns`, () => {
      fc.assert(
        fc.property(pattern, subject, (p, s) => {
          withinBudget(p.length, s, () => {
            try {
              match(p, s);
            } catch {
              // as above
            }
          });
        }),
        { numRuns: 150, seed: 28 },
      );
    });
  }
});
