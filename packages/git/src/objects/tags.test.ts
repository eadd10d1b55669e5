import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { GitAlreadyExistsError, GitInvalidArgumentError, GitNotFoundError } from "../errors/git-error.js";
import { createTag, deleteTag, getTag, listTags } from "./tags.js";

describe("tags", () => {
  let fx: FixtureRepo;
  beforeAll(async () => {
    fx = await fixtureRepo();
  });
  afterAll(() => fx.cleanup());

  it("lists lightweight and annotated tags with their commits", async () => {
    const [v1, v2] = await listTags(fx.repo);
    expect(v1).toMatchObject({
      name: "v1",
      sha: fx.shas.one,
      annotated: false,
      commit: { sha: fx.shas.one },
    });
    expect(v2).toMatchObject({
      name: "v2",
      annotated: true,
      message: "Version 2\n",
      commit: { sha: fx.shas.three },
    });
    expect(v2?.sha).toBe(await fx.cli.ok(["rev-parse", "refs/tags/v2"], fx.repo.gitdir));
    expect(v2?.tagger).toMatchObject({ name: "Alice", timestamp: 1704362400 });
  });

  it("creates lightweight and annotated tags that git sees", async () => {
    const light = await createTag(fx.repo, { name: "light", target: "feature" });
    expect(light).toMatchObject({ sha: fx.shas.two, annotated: false });
    const tagger = { name: "Tia", email: "tia@example.com", date: new Date("2024-06-01T00:00:00Z") };
    const heavy = await createTag(fx.repo, { name: "release/1.0", message: "Release 1.0", tagger });
    expect(heavy).toMatchObject({
      annotated: true,
      message: "Release 1.0\n",
      commit: { sha: fx.shas.three },
    });
    expect(await fx.cli.ok(["cat-file", "-t", "release/1.0"], fx.repo.gitdir)).toBe("tag");
    expect(await fx.cli.ok(["rev-parse", "release/1.0^{commit}"], fx.repo.gitdir)).toBe(fx.shas.three);
    expect((await getTag(fx.repo, "release/1.0")).tagger?.email).toBe("tia@example.com");
  });

  it("refuses duplicates, missing targets, bad names and taggerless annotations", async () => {
    await expect(createTag(fx.repo, { name: "v1" })).rejects.toBeInstanceOf(GitAlreadyExistsError);
    await expect(createTag(fx.repo, { name: "x", target: "missing" })).rejects.toBeInstanceOf(
      GitNotFoundError,
    );
    await expect(createTag(fx.repo, { name: "bad name" })).rejects.toBeInstanceOf(GitInvalidArgumentError);
    await expect(createTag(fx.repo, { name: "y", message: "m" })).rejects.toBeInstanceOf(
      GitInvalidArgumentError,
    );
  });

  it("deletes tags", async () => {
    expect(await deleteTag(fx.repo, "light")).toBe(fx.shas.two);
    await expect(getTag(fx.repo, "light")).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(deleteTag(fx.repo, "light")).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("treats names git refuses as tags that do not exist", async () => {
    for (const name of ["./v2", "v\u00002", "x/../v2"]) {
      await expect(getTag(fx.repo, name), name).rejects.toBeInstanceOf(GitNotFoundError);
      await expect(deleteTag(fx.repo, name), name).rejects.toBeInstanceOf(GitNotFoundError);
    }
    expect((await getTag(fx.repo, "v2")).name).toBe("v2");
  });
});
