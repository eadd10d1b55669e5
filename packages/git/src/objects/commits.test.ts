import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { GitEmptyRepositoryError, GitNotFoundError } from "../errors/git-error.js";
import { getCommit, listCommits } from "./commits.js";
import { signatureDate } from "./signature.js";

describe("commits", () => {
  let fx: FixtureRepo;
  beforeAll(async () => {
    fx = await fixtureRepo();
  });
  afterAll(() => fx.cleanup());

  it("lists history newest first with a total once the walk reaches the root", async () => {
    const page = await listCommits(fx.repo);
    expect(page.commits.map((commit) => commit.sha)).toEqual([fx.shas.three, fx.shas.two, fx.shas.one]);
    expect(page).toMatchObject({ hasMore: false, total: 3 });
  });

  it("paginates with page and limit", async () => {
    const first = await listCommits(fx.repo, { limit: 2 });
    expect(first.commits.map((commit) => commit.sha)).toEqual([fx.shas.three, fx.shas.two]);
    expect(first.hasMore).toBe(true);
    // The total is known on every page, not only when the walk reaches the root.
    expect(first.total).toBe(3);
    const second = await listCommits(fx.repo, { limit: 2, page: 2 });
    expect(second.commits.map((commit) => commit.sha)).toEqual([fx.shas.one]);
    expect(second).toMatchObject({ hasMore: false, total: 3 });
  });

  it("starts from a ref and filters by path", async () => {
    expect((await listCommits(fx.repo, { sha: "feature" })).commits.map((c) => c.sha)).toEqual([
      fx.shas.two,
      fx.shas.one,
    ]);
    expect((await listCommits(fx.repo, { path: "src/index.ts" })).commits.map((c) => c.sha)).toEqual([
      fx.shas.two,
      fx.shas.one,
    ]);
    expect((await listCommits(fx.repo, { path: "docs" })).commits.map((c) => c.sha)).toEqual([
      fx.shas.three,
      fx.shas.one,
    ]);
    await expect(listCommits(fx.repo, { sha: "nope" })).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("reads one commit by branch, tag, full or short sha, with people and timezones", async () => {
    for (const ref of ["feature", fx.shas.two, fx.shas.two.slice(0, 7)]) {
      expect((await getCommit(fx.repo, ref)).sha).toBe(fx.shas.two);
    }
    expect((await getCommit(fx.repo, "v2")).sha).toBe(fx.shas.three);
    expect((await getCommit(fx.repo, "v1")).sha).toBe(fx.shas.one);
    const commit = await getCommit(fx.repo, fx.shas.two);
    expect(commit.parents).toEqual([fx.shas.one]);
    expect(commit.message).toBe("Second commit\n\nWith a body.\n");
    expect(commit.author).toMatchObject({ name: "Alice", email: "alice@example.com", timezoneOffset: -300 });
    expect(signatureDate(commit.author)).toBe("2024-01-02T10:00:00-05:00");
    expect(commit.signed).toBe(false);
    await expect(getCommit(fx.repo, "0000000000000000000000000000000000000001")).rejects.toBeInstanceOf(
      GitNotFoundError,
    );
  });

  it("lists the files a commit changed with line stats", async () => {
    const commit = await getCommit(fx.repo, fx.shas.two);
    expect(commit.files).toEqual([
      { filename: ".gitmodules", status: "added", additions: 3, deletions: 0 },
      { filename: "ext", status: "added", additions: 0, deletions: 0 },
      { filename: "src/index.ts", status: "modified", additions: 2, deletions: 1 },
    ]);
    expect(commit.stats).toEqual({ additions: 5, deletions: 1, total: 6 });
    const root = await getCommit(fx.repo, fx.shas.one);
    expect(root.files.map((file) => file.filename)).toEqual([
      "Dockerfile",
      "README.md",
      "docs/guide.md",
      "link",
      "run.sh",
      "src/index.ts",
      "vendor/lib.js",
    ]);
    expect((await getCommit(fx.repo, fx.shas.three)).files).toEqual([
      { filename: "docs/guide.md", status: "removed", additions: 0, deletions: 1 },
    ]);
  });

  it("reports an empty repository as such", async () => {
    const empty = await fx.store.create("alice", "empty-commits");
    await expect(listCommits(empty)).rejects.toBeInstanceOf(GitEmptyRepositoryError);
    await expect(getCommit(empty, "main")).rejects.toBeInstanceOf(GitEmptyRepositoryError);
  });
});
