import { describe, expect, it } from "vitest";
import { parseRefUpdateLines } from "./parse-push.js";

describe("parseRefUpdateLines", () => {
  it("reads old, new and ref per line and skips junk", () => {
    const a = "a".repeat(40);
    const b = "b".repeat(40);
    expect(parseRefUpdateLines(`${a} ${b} refs/heads/main\nnonsense\n\n${b} ${a} refs/tags/v1\n`)).toEqual([
      { oldSha: a, newSha: b, ref: "refs/heads/main" },
      { oldSha: b, newSha: a, ref: "refs/tags/v1" },
    ]);
  });
});
