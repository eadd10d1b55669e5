import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { openRawFile } from "./contents.js";
import { splitRefFromPath } from "./ref-in-path.js";

describe("a ref leading a raw path (Forgejo's legacy raw/{ref}/{path})", () => {
  let fx: FixtureRepo;
  beforeAll(async () => {
    fx = await fixtureRepo();
  });
  afterAll(() => fx.cleanup());

  it("is a branch, else a tag, else a full sha; otherwise the path has no ref", async () => {
    expect(await splitRefFromPath(fx.repo, "feature/src/index.ts")).toEqual({
      ref: "feature",
      path: "src/index.ts",
    });
    expect(await splitRefFromPath(fx.repo, "v1/docs/guide.md")).toEqual({ ref: "v1", path: "docs/guide.md" });
    expect(await splitRefFromPath(fx.repo, `${fx.shas.one}/README.md`)).toEqual({
      ref: fx.shas.one,
      path: "README.md",
    });
    expect(await splitRefFromPath(fx.repo, "main")).toEqual({ ref: "main", path: "" });
    expect(await splitRefFromPath(fx.repo, "README.md")).toEqual({ path: "README.md" });
    expect(await splitRefFromPath(fx.repo, "nope/README.md")).toEqual({ path: "nope/README.md" });
  });

  it("finds the file it names, at that ref", async () => {
    const target = await splitRefFromPath(fx.repo, "v1/docs/guide.md");
    const file = await openRawFile(fx.repo, target.path, target.ref ? { ref: target.ref } : {});
    const content = await file.content();
    // A small file comes whole, ready to be answered in one write.
    expect(content).toBeInstanceOf(Uint8Array);
    expect(Buffer.from(content as Uint8Array).toString("utf8")).toBe(
      await new Response(await file.open()).text(),
    );
    expect((content as Uint8Array).length).toBe(file.size);
  });
});
