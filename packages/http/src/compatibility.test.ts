import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { compatibilityMarkdown, parseForgejoOperations } from "./compatibility.js";
import { allRoutes } from "./routes/index.js";

describe("docs/compatibility.md", () => {
  it("is up to date with the route registry (regenerate with `pnpm --filter @kiln/http compat`)", () => {
    const forgejo = parseForgejoOperations(
      readFileSync(new URL("../test/fixtures/forgejo-operations.tsv", import.meta.url), "utf8"),
    );
    const expected = compatibilityMarkdown(allRoutes, forgejo);
    const actual = readFileSync(new URL("../../../docs/compatibility.md", import.meta.url), "utf8");
    expect(actual).toBe(expected);
    expect(expected).toContain("| ✓ | GET | `/user` | userGetCurrent |");
    // Every operation not built has its reason.
    expect(expected).not.toContain("no reason recorded");
  });
});
