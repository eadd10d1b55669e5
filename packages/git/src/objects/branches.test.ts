import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import {
  GitAlreadyExistsError,
  GitDefaultBranchError,
  GitEmptyRepositoryError,
  GitInvalidArgumentError,
  GitNotFoundError,
} from "../errors/git-error.js";
import { createBranch, deleteBranch, getBranch, listBranches, setDefaultBranch } from "./branches.js";

describe("branches", () => {
  let fx: FixtureRepo;
  beforeAll(async () => {
    fx = await fixtureRepo();
  });
  afterAll(() => fx.cleanup());

  it("lists branches with their head commits", async () => {
    const branches = await listBranches(fx.repo);
    expect(branches.map((b) => [b.name, b.commit.sha, b.isDefault])).toEqual([
      ["feature", fx.shas.two, false],
      ["main", fx.shas.three, true],
    ]);
    expect((await getBranch(fx.repo, "main")).commit.message).toBe("Third commit\n");
    await expect(getBranch(fx.repo, "nope")).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("creates a branch from a branch, a tag or a commit sha", async () => {
    expect((await createBranch(fx.repo, { name: "from-branch", from: "feature" })).commit.sha).toBe(
      fx.shas.two,
    );
    expect((await createBranch(fx.repo, { name: "from-tag", from: "v2" })).commit.sha).toBe(fx.shas.three);
    expect((await createBranch(fx.repo, { name: "from-sha", from: fx.shas.one })).commit.sha).toBe(
      fx.shas.one,
    );
    expect((await createBranch(fx.repo, { name: "from-default" })).commit.sha).toBe(fx.shas.three);
    expect((await getBranch(fx.repo, "from-tag")).commit.sha).toBe(fx.shas.three);
  });

  it("refuses an existing name, a missing source, a bad name and an empty repository", async () => {
    await expect(createBranch(fx.repo, { name: "feature", from: "main" })).rejects.toBeInstanceOf(
      GitAlreadyExistsError,
    );
    await expect(createBranch(fx.repo, { name: "x", from: "missing" })).rejects.toBeInstanceOf(
      GitNotFoundError,
    );
    await expect(createBranch(fx.repo, { name: "a..b" })).rejects.toBeInstanceOf(GitInvalidArgumentError);
    const empty = await fx.store.create("alice", "empty-branches");
    await expect(createBranch(empty, { name: "x", from: "main" })).rejects.toBeInstanceOf(
      GitEmptyRepositoryError,
    );
  });

  it("deletes branches but never the default one", async () => {
    expect(await deleteBranch(fx.repo, "from-sha")).toBe(fx.shas.one);
    await expect(getBranch(fx.repo, "from-sha")).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(deleteBranch(fx.repo, "from-sha")).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(deleteBranch(fx.repo, "main")).rejects.toBeInstanceOf(GitDefaultBranchError);
  });

  it("treats names git refuses as branches that do not exist, and never touches other refs", async () => {
    for (const name of [
      "./main",
      "a/./feature",
      "feature/../main",
      "ma\u0000in",
      "../../config",
      "feature/",
      "x.lock",
    ]) {
      await expect(getBranch(fx.repo, name), name).rejects.toBeInstanceOf(GitNotFoundError);
      await expect(deleteBranch(fx.repo, name), name).rejects.toBeInstanceOf(GitNotFoundError);
      await expect(createBranch(fx.repo, { name }), name).rejects.toBeInstanceOf(GitInvalidArgumentError);
    }
    await expect(createBranch(fx.repo, { name: "y", from: "ma\u0000in" })).rejects.toBeInstanceOf(
      GitNotFoundError,
    );
    expect((await getBranch(fx.repo, "main")).commit.sha).toBe(fx.shas.three);
    expect((await getBranch(fx.repo, "feature")).commit.sha).toBe(fx.shas.two);
  });

  it("changes the default branch to an existing branch", async () => {
    await setDefaultBranch(fx.repo, "feature");
    expect(await fx.cli.ok(["symbolic-ref", "HEAD"], fx.repo.gitdir)).toBe("refs/heads/feature");
    await expect(setDefaultBranch(fx.repo, "nope")).rejects.toBeInstanceOf(GitNotFoundError);
    await setDefaultBranch(fx.repo, "main");
  });
});
