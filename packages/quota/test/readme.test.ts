// The README's embedding example is test/readme-example.ts verbatim; this test keeps the two
// identical and checks that running the example prints what its `// →` comments promise.
import { readFileSync } from "node:fs";
import { afterEach, describe, expect, it, vi } from "vitest";

const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
const example = readFileSync(new URL("./readme-example.ts", import.meta.url), "utf8");

describe("README embedding example", () => {
  afterEach(() => vi.restoreAllMocks());

  it("is the tested example file, verbatim", () => {
    expect(readme).toContain(`\`\`\`ts\n${example}\`\`\``);
  });

  it("prints what its comments say", async () => {
    const printed: string[] = [];
    vi.spyOn(console, "log").mockImplementation((value: unknown) => printed.push(String(value)));
    await import("./readme-example.js");
    const promised = [...example.matchAll(/\/\/ → (.*)$/gm)].map((match) => match[1]);
    expect(promised).toHaveLength(4);
    expect(printed).toEqual(promised);
  });
});
