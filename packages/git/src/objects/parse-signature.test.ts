import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { parseCommit, splitSignatureLine } from "./parse-objects.js";

const REFERENCE = /^(.*) <(.*)> (.*) (.*)$/;

describe("signature lines", () => {
  it("split exactly as the regular expression they replace", () => {
    const text = fc
      .array(fc.constantFrom(" ", "<", ">", "a", "1", "+", "\r", " <", "> "), { maxLength: 16 })
      .map((parts) => parts.join(""));
    fc.assert(
      fc.property(text, (line) => {
        const expected = REFERENCE.exec(line);
        expect(splitSignatureLine(line)).toEqual(expected ? expected.slice(1, 5) : undefined);
      }),
      { numRuns: 5000, seed: 28 },
    );
  });

  it("parse a crafted author line of a pushed commit in one pass (the expression took minutes: the test would time out)", () => {
    const author = `${"<> ".repeat(20_000)}x`;
    const raw = `tree ${"a".repeat(40)}\nauthor ${author} <e> 1 +0000\ncommitter C <c> 2 -0130\n\n${"\n".repeat(100_000)}msg${"\n".repeat(100_000)}end`;
    const parsed = parseCommit("b".repeat(40), new TextEncoder().encode(raw));
    expect(parsed.commit.author).toMatchObject({ name: author, email: "e", timestamp: 1 });
    expect(parsed.commit.committer.timezoneOffset).toBe(90);
    expect(parsed.commit.message).toBe(`msg${"\n".repeat(100_000)}end\n`);
  });
});
