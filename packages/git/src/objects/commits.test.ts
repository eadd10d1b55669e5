import { execFileSync } from "node:child_process";
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
    // Past the end, the total still counts the whole history, with a path too.
    expect(await listCommits(fx.repo, { limit: 2, page: 5 })).toEqual({
      commits: [],
      hasMore: false,
      total: 3,
    });
    const byPath = await listCommits(fx.repo, { path: "src/index.ts", limit: 1, page: 9 });
    expect(byPath).toEqual({ commits: [], hasMore: false, total: 2 });
    expect((await listCommits(fx.repo, { path: "src/index.ts", limit: 1 })).total).toBe(2);
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

  it("counts lines of a commit with more files than one batch reads, as git does, binary and large files as none", async () => {
    const repo = await fx.store.create("alice", "many-files");
    const lines: string[] = [];
    const file = (path: string, content: string | Buffer) => {
      const data = Buffer.from(content);
      lines.push(`M 100644 inline ${path}`, `data ${data.length}`, data.toString("latin1"));
    };
    const commit = (n: number, files: () => void) => {
      lines.push(
        "commit refs/heads/main",
        `committer A <a@example.com> ${1_700_000_000 + n} +0000`,
        "data 1",
        "c",
      );
      files();
    };
    commit(1, () => {
      for (let f = 0; f < 1500; f++)
        file(`d${f % 7}/f${f}.txt`, "x\n".repeat(f % 5) + (f % 3 === 0 ? "tail" : ""));
      file("crlf.txt", "a\r\nb\r\n");
      file("bin.dat", Buffer.from([1, 0, 2, 10, 3]));
      file("large.txt", "line\n".repeat(300_000));
    });
    commit(2, () => {
      for (let f = 0; f < 1500; f += 100) file(`d${f % 7}/f${f}.txt`, "y\nx\n");
      file("crlf.txt", "a\r\nc\r\nd\r\n");
      file("large.txt", "line\n".repeat(300_001));
    });
    execFileSync("git", ["--git-dir", repo.gitdir, "fast-import", "--quiet"], {
      input: Buffer.from(`${lines.join("\n")}\n`, "latin1"),
      env: { PATH: process.env.PATH, GIT_CONFIG_NOSYSTEM: "1", GIT_CONFIG_GLOBAL: "/dev/null" },
    });
    for (const ref of ["main~1", "main"]) {
      const sha = execFileSync("git", ["--git-dir", repo.gitdir, "rev-parse", ref]).toString().trim();
      const numstat = execFileSync("git", [
        "--git-dir",
        repo.gitdir,
        "diff-tree",
        "-r",
        "--root",
        "--numstat",
        "--no-renames",
        "--no-commit-id",
        sha,
      ])
        .toString()
        .trim()
        .split("\n")
        .map((line) => line.split("\t"))
        // git counts the lines of a large text file; Kiln counts none above 1 MiB.
        .map(([add = "", del = "", name = ""]) =>
          name === "large.txt" || add === "-" ? [name, 0, 0] : [name, Number(add), Number(del)],
        )
        .sort(([a], [b]) => (String(a) < String(b) ? -1 : 1));
      const commit = await getCommit(repo, sha);
      expect(commit.files.map((f) => [f.filename, f.additions, f.deletions])).toEqual(numstat);
      expect(commit.files.length).toBe(ref === "main" ? 17 : 1503);
      // Asked again, it is the same answer.
      expect(await getCommit(repo, sha)).toEqual(commit);
    }
  });

  it("reports an empty repository as such", async () => {
    const empty = await fx.store.create("alice", "empty-commits");
    await expect(listCommits(empty)).rejects.toBeInstanceOf(GitEmptyRepositoryError);
    await expect(getCommit(empty, "main")).rejects.toBeInstanceOf(GitEmptyRepositoryError);
  });

  it("pages a long history with merges in git's order, in process and past the in-process walk", async () => {
    const repo = await fx.store.create("alice", "long");
    // Two lines of 350 commits each, merged, with committer dates that interleave the lines.
    const lines: string[] = [];
    const commit = (mark: number, ref: string, when: number, from?: number, merge?: number) => {
      lines.push(
        `commit ${ref}`,
        `mark :${mark}`,
        `committer C <c@example.com> ${when} +0000`,
        "data 1",
        "x",
      );
      if (from) lines.push(`from :${from}`);
      if (merge) lines.push(`merge :${merge}`);
      lines.push(`M 100644 inline f${mark}`, "data 1", "y");
    };
    for (let n = 1; n <= 350; n++)
      commit(n, "refs/heads/main", 1_700_000_000 + n * 2, n > 1 ? n - 1 : undefined);
    for (let n = 1; n <= 350; n++) {
      commit(1000 + n, "refs/heads/side", 1_700_000_001 + n * 2, n > 1 ? 999 + n : 100);
    }
    commit(5000, "refs/heads/main", 1_700_001_000, 350, 1350);
    execFileSync("git", ["--git-dir", repo.gitdir, "fast-import", "--quiet"], {
      input: `${lines.join("\n")}\n`,
    });
    const expected = execFileSync("git", ["--git-dir", repo.gitdir, "rev-list", "main"])
      .toString()
      .trim()
      .split("\n");
    expect(expected.length).toBe(701);
    const listed: string[] = [];
    for (let page = 1; page <= 15; page++) {
      const { commits, total, hasMore } = await listCommits(repo, { page, limit: 50 });
      expect(total).toBe(701);
      expect(hasMore).toBe(page * 50 < 701);
      listed.push(...commits.map((c) => c.sha));
    }
    expect(listed).toEqual(expected);
  });
});
