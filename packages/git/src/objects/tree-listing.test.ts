import { execFileSync } from "node:child_process";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { getContents } from "./contents.js";
import { directoryWindow } from "./directory-window.js";
import { isoContext } from "./iso.js";
import { isLargeTree, LARGE_TREE_BYTES } from "./large-tree.js";
import { refPage } from "./ref-pages.js";
import { refsChanged } from "./repo-state.js";
import { normalizeRepoPath } from "./tree-entries.js";
import { getTree } from "./trees.js";

/**
 * A directory too large to parse in process (5,000 files, a tree of about 170 KiB): reads of one
 * file, listings and tree pages decode only what they answer, in git's order.
 */
describe("large directories", () => {
  let fx: FixtureRepo;
  let bigTree: string;
  const FILES = 5000;
  const names = Array.from({ length: FILES }, (_, i) => `file-${String(i).padStart(5, "0")}.txt`);

  beforeAll(async () => {
    fx = await fixtureRepo();
    const git = (args: string[]) => fx.cli.ok(["--git-dir", fx.repo.gitdir, ...args]);
    const blob = await fx.cli.ok(["--git-dir", fx.repo.gitdir, "rev-parse", "main:README.md"]);
    const run = (args: string[], input: string) =>
      execFileSync("git", ["--git-dir", fx.repo.gitdir, ...args], { input, env: fx.cli.env })
        .toString()
        .trim();
    bigTree = run(["mktree"], names.map((name) => `100644 blob ${blob}\t${name}\n`).join(""));
    const root = run(["mktree"], `040000 tree ${bigTree}\tbig\n100644 blob ${blob}\tREADME.md\n`);
    const commit = run(["commit-tree", root, "-m", "big"], "");
    await git(["update-ref", "refs/heads/big", commit]);
    // Tags and branches for the ref pages.
    for (let i = 0; i < 30; i++)
      await git(["update-ref", `refs/heads/page/b${String(i).padStart(2, "0")}`, commit]);
    refsChanged(fx.repo.gitdir);
  });
  afterAll(() => fx.cleanup());

  it("are large enough to be read by git", async () => {
    expect(await isLargeTree(isoContext(fx.repo), bigTree)).toBe(true);
    expect(FILES * 30).toBeGreaterThan(LARGE_TREE_BYTES);
  });

  it("find one file by name", async () => {
    const found = await getContents(fx.repo, `big/${names[4321]}`, { ref: "big" });
    expect(
      found.kind === "entry" && "content" in found.entry && Buffer.from(found.entry.content).toString(),
    ).toBe("# fixture\n");
    await expect(getContents(fx.repo, "big/nope.txt", { ref: "big" })).rejects.toMatchObject({
      kind: "not_found",
    });
  });

  it("list at most the maximum, in git's order, and say there are more", async () => {
    const listing = await getContents(fx.repo, "big", { ref: "big", maxEntries: 100 });
    expect(listing.kind === "dir" && listing.entries.map((e) => e.name)).toEqual(names.slice(0, 100));
    expect(listing.kind === "dir" && listing.truncated).toBe(true);
    const small = await getContents(fx.repo, "", { ref: "big", maxEntries: 100 });
    expect(small.kind === "dir" && small.truncated).toBe(false);
  });

  it("window a directory and count all of it", async () => {
    const window = await directoryWindow(fx.repo, { ref: "big", path: "big", start: 4990, count: 20 });
    expect(window.entries.map((e) => e.name)).toEqual(names.slice(4990));
    expect(window.total).toBe(FILES);
  });

  it("page trees, recursive or not, with the total", async () => {
    const flat = await getTree(fx.repo, bigTree, { page: 3, perPage: 1000 });
    expect(flat.entries.map((e) => e.path)).toEqual(names.slice(2000, 3000));
    expect(flat).toMatchObject({ totalCount: FILES, truncated: true });
    const deep = await getTree(fx.repo, "big", { recursive: true, page: 1, perPage: 3 });
    expect(deep.entries.map((e) => e.path)).toEqual(["README.md", "big", `big/${names[0]}`]);
    expect(deep.totalCount).toBe(FILES + 2);
    expect(deep.entries[0]?.size).toBe(10);
  });

  it("page refs as git sorts them", async () => {
    const page = await refPage(fx.repo, { prefix: "refs/heads/", sort: ["refname"], start: 3, count: 3 });
    expect(page.names).toEqual(["refs/heads/page/b00", "refs/heads/page/b01", "refs/heads/page/b02"]);
    expect(page.total).toBe(33);
  });

  it("trims a path's slashes in one pass (a trailing-run expression took minutes: the test would time out)", () => {
    const slashes = "/".repeat(200_000);
    expect(normalizeRepoPath(`${slashes}big/f${slashes}`)).toBe("big/f");
    expect(() => normalizeRepoPath(`a${slashes}b`)).toThrow("invalid file path");
  });
});
