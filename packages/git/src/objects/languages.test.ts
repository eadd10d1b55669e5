import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { changeFiles } from "./change-files.js";
import { languageOf, languageStats } from "./languages.js";
import { isExcludedFromLanguageStats } from "./linguist-filters.js";

describe("languageOf and the linguist filters", () => {
  it("names languages by extension and well-known file names, ignoring prose and data", () => {
    expect(languageOf("src/a.ts")).toBe("TypeScript");
    expect(languageOf("x/Dockerfile")).toBe("Dockerfile");
    expect(languageOf("Makefile")).toBe("Makefile");
    expect(languageOf("style.SCSS")).toBe("SCSS");
    expect(languageOf("README.md")).toBeUndefined();
    expect(languageOf("data.json")).toBeUndefined();
    expect(languageOf("LICENSE")).toBeUndefined();
  });

  it("skips vendored, generated, documentation and dot paths", () => {
    for (const path of [
      "vendor/a.go",
      "web/node_modules/x/y.js",
      "app.min.js",
      "dist/app.js",
      "docs/a.py",
      ".github/x.sh",
    ]) {
      expect(isExcludedFromLanguageStats(path), path).toBe(true);
    }
    expect(isExcludedFromLanguageStats("src/app.js")).toBe(false);
  });
});

describe("languageStats", () => {
  let fx: FixtureRepo;
  beforeAll(async () => {
    fx = await fixtureRepo();
  });
  afterAll(() => fx.cleanup());

  it("sums bytes per language on the default branch", async () => {
    expect(await languageStats(fx.repo)).toEqual({ TypeScript: 61, Shell: 19, Dockerfile: 13 });
    await changeFiles(fx.repo, {
      author: { name: "A", email: "a@example.com" },
      files: [
        { operation: "create", path: "web/app.min.js", content: Buffer.from("x".repeat(500)) },
        { operation: "create", path: "web/app.js", content: Buffer.from("y".repeat(40)) },
        { operation: "create", path: "node_modules/dep/index.js", content: Buffer.from("z".repeat(900)) },
      ],
    });
    expect(await languageStats(fx.repo)).toEqual({
      TypeScript: 61,
      JavaScript: 40,
      Shell: 19,
      Dockerfile: 13,
    });
  });

  it("is empty for an empty repository", async () => {
    expect(await languageStats(await fx.store.create("alice", "no-lang"))).toEqual({});
  });
});
