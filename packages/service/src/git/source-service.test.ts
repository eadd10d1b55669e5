import { NotFoundError, type Repository } from "@kiln/domain";
import { DIALECTS } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { useTestServices } from "../../test/support.js";
import type { Services } from "../services.js";

const text = (s: string) => new TextEncoder().encode(s);

describe.each(DIALECTS)("SourceService on %s", (dialect) => {
  let s: Services;
  useTestServices(dialect, (services) => {
    s = services;
  });

  let made: Promise<{ repo: Repository }> | undefined;
  const fixture = () => {
    made ??= make();
    return made;
  };
  async function make() {
    const owner = await s.users.create({
      username: `ann-${dialect}`,
      email: `ann-${dialect}@example.com`,
      password: "password1",
    });
    const repo = await s.repositories.create(owner, owner, { name: "code", autoInit: true });
    await s.files.changeFiles(
      repo,
      owner,
      [{ operation: "create", path: "docs/a.md", content: text("# A") }],
      {
        newBranch: "feature/x",
      },
    );
    await s.tags.create(repo, owner, { name: "v1/rc" });
    return { repo };
  }

  it("splits a branch with a slash from the path, and a tag, a commit and the legacy form", async () => {
    const { repo } = await fixture();
    const sources = s.sources;
    expect(await sources.resolve(repo, "branch", "feature/x/docs/a.md")).toEqual({
      kind: "branch",
      name: "feature/x",
      path: "docs/a.md",
      fullRef: "refs/heads/feature/x",
    });
    expect(await sources.resolve(repo, "branch", "main")).toEqual({
      kind: "branch",
      name: "main",
      path: "",
      fullRef: "refs/heads/main",
    });
    expect(await sources.resolve(repo, "tag", "v1/rc/README.md")).toEqual({
      kind: "tag",
      name: "v1/rc",
      path: "README.md",
      fullRef: "refs/tags/v1/rc",
    });
    expect(await sources.resolve(repo, "commit", "abcdef12/x/y")).toEqual({
      kind: "commit",
      name: "abcdef12",
      path: "x/y",
      fullRef: "abcdef12",
    });
    expect(await sources.resolve(repo, undefined, "v1/rc/README.md")).toMatchObject({
      kind: "tag",
      name: "v1/rc",
      fullRef: "refs/tags/v1/rc",
    });
    expect(await sources.resolve(repo, undefined, "feature/x")).toMatchObject({ kind: "branch", path: "" });
  });

  it("is 404 for a ref of another kind, no ref, or a commit that is no sha", async () => {
    const { repo } = await fixture();
    await expect(s.sources.resolve(repo, "branch", "v1/rc/README.md")).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.sources.resolve(repo, "tag", "main")).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.sources.resolve(repo, "commit", "main/README.md")).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.sources.resolve(repo, undefined, "nope/README.md")).rejects.toBeInstanceOf(NotFoundError);
    await expect(s.sources.resolve(repo, "branch", "x".repeat(5000))).rejects.toBeInstanceOf(NotFoundError);
  });

  it("reads a tag by its full name and lists ref names for a selector", async () => {
    const { repo } = await fixture();
    const at = await s.sources.resolve(repo, "tag", "v1/rc");
    const view = await s.contents.contentsAt(repo, at);
    expect(view.ref).toEqual({ name: "v1/rc", kind: "tag", path: "v1/rc" });
    expect(view.items.map((i) => i.entry.name)).toContain("README.md");
    expect(await s.sources.refNames(repo, "branch", 10)).toEqual({ names: ["feature/x", "main"], total: 2 });
    expect((await s.sources.refNames(repo, "tag", 10)).names).toEqual(["v1/rc"]);
  });
});
