import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { getContents, openRawFile } from "./contents.js";

describe("contents", () => {
  let fx: FixtureRepo;
  beforeAll(async () => {
    fx = await fixtureRepo();
  });
  afterAll(() => fx.cleanup());

  it("lists the root directory with each entry's type, size and mode", async () => {
    const result = await getContents(fx.repo, "");
    expect(result.kind).toBe("dir");
    if (result.kind !== "dir") return;
    expect(result.commitSha).toBe(fx.shas.three);
    const byName = Object.fromEntries(result.entries.map((entry) => [entry.name, entry]));
    expect(Object.keys(byName).sort()).toEqual([
      ".gitmodules",
      "Dockerfile",
      "README.md",
      "ext",
      "link",
      "run.sh",
      "src",
      "vendor",
    ]);
    expect(byName["run.sh"]).toMatchObject({ type: "file", mode: "100755", size: 19, path: "run.sh" });
    expect(byName.link).toMatchObject({ type: "symlink", mode: "120000", target: "README.md" });
    expect(byName.src).toMatchObject({ type: "dir", size: 0 });
    expect(byName.ext).toMatchObject({
      type: "submodule",
      sha: fx.shas.submodule,
      submoduleUrl: "https://example.com/ext.git",
    });
    expect("content" in byName["README.md"]!).toBe(false);
  });

  it("returns a file with its bytes, and an executable file like any other", async () => {
    const result = await getContents(fx.repo, "run.sh");
    expect(result.kind).toBe("entry");
    if (result.kind !== "entry" || !("content" in result.entry)) throw new Error("expected a file");
    expect(result.entry.type).toBe("file");
    expect(Buffer.from(result.entry.content).toString()).toBe("#!/bin/sh\necho run\n");
  });

  it("reads at another ref and finds the last commit of each entry on request", async () => {
    const old = await getContents(fx.repo, "docs/guide.md", { ref: "v1" });
    expect(old.kind === "entry" && old.entry.type).toBe("file");
    const listing = await getContents(fx.repo, "src", { lastCommit: true });
    expect(listing.kind === "dir" && listing.entries).toEqual([
      expect.objectContaining({ name: "index.ts", path: "src/index.ts", lastCommitSha: fx.shas.two }),
    ]);
  });

  it("throws not-found for a missing path or ref and invalid-argument for a bad path", async () => {
    await expect(getContents(fx.repo, "docs/guide.md")).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(getContents(fx.repo, "README.md/x")).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(getContents(fx.repo, "README.md", { ref: "nope" })).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(getContents(fx.repo, "../etc/passwd")).rejects.toBeInstanceOf(GitInvalidArgumentError);
  });

  it("reads raw bytes of a file at a ref", async () => {
    const raw = await openRawFile(fx.repo, "src/index.ts", { ref: fx.shas.one });
    const text = await new Response(await raw.open()).text();
    expect(text).toBe("export const a = 1;\nexport const b = 2;\n");
    expect(raw.size).toBe(Buffer.byteLength(text));
    expect(raw.mode).toBe("100644");
    await expect(openRawFile(fx.repo, "src")).rejects.toBeInstanceOf(GitNotFoundError);
  });
});
