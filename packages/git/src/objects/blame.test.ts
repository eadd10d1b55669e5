import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { GitRepository } from "../disk/git-repository.js";
import { RepoStore } from "../disk/repo-store.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { blame } from "./blame.js";

const author = {
  name: "Ann",
  email: "ann@example.com",
  date: new Date("2024-03-01T10:00:00Z"),
  timezoneOffset: 0,
};

describe("blame", () => {
  let dir: string;
  let git: GitRepository;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "kiln-blame-"));
    git = await new RepoStore({ root: dir }).create("ann", "blamed", { autoInit: { author } });
  });
  afterAll(() => rm(dir, { recursive: true, force: true }));

  it("names the commit, author and time of each run of lines", async () => {
    const result = await blame(git, "HEAD", "README.md");
    expect(result.hunks.length).toBeGreaterThan(0);
    expect(result.hunks[0]?.line).toBe(1);
    const commit = result.commits.get(result.hunks[0]?.sha ?? "");
    expect(commit?.authorName).toBe("Ann");
    expect(commit?.authorTime).toBe(author.date.getTime() / 1000);
    expect(commit?.summary).not.toBe("");
  });

  it("is not-found for a missing path or an option-like revision", async () => {
    await expect(blame(git, "HEAD", "nope.md")).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(blame(git, "--output=x", "README.md")).rejects.toBeInstanceOf(GitNotFoundError);
  });
});
