import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FixtureRepo, fixtureRepo } from "../../test/fixture-repo.js";
import { GitNotFoundError } from "../errors/git-error.js";
import { getBlob } from "./blobs.js";
import { listRefs } from "./refs.js";
import { getTree } from "./trees.js";

describe("trees, blobs and refs", () => {
  let fx: FixtureRepo;
  beforeAll(async () => {
    fx = await fixtureRepo();
  });
  afterAll(() => fx.cleanup());

  it("lists a tree by ref, commit sha or tree sha", async () => {
    const byRef = await getTree(fx.repo, "v1");
    const treeSha = await fx.cli.ok(["rev-parse", `${fx.shas.one}^{tree}`], fx.repo.gitdir);
    expect(byRef.sha).toBe(treeSha);
    expect((await getTree(fx.repo, fx.shas.one)).sha).toBe(treeSha);
    expect((await getTree(fx.repo, treeSha)).entries).toEqual(byRef.entries);
    expect(byRef.entries.find((entry) => entry.path === "README.md")).toMatchObject({
      type: "blob",
      mode: "100644",
      size: 10,
    });
    expect(byRef.entries.find((entry) => entry.path === "src")).toEqual(
      expect.objectContaining({ type: "tree", mode: "040000" }),
    );
    expect(byRef).toMatchObject({ truncated: false, page: 1, totalCount: 7 });
  });

  it("lists recursively and pages like Forgejo", async () => {
    const all = await getTree(fx.repo, fx.shas.one, { recursive: true });
    expect(all.entries.map((entry) => entry.path)).toEqual([
      "Dockerfile",
      "README.md",
      "docs",
      "docs/guide.md",
      "link",
      "run.sh",
      "src",
      "src/index.ts",
      "vendor",
      "vendor/lib.js",
    ]);
    const page = await getTree(fx.repo, fx.shas.one, { recursive: true, page: 2, perPage: 4 });
    expect(page.entries.map((entry) => entry.path)).toEqual(["link", "run.sh", "src", "src/index.ts"]);
    expect(page).toMatchObject({ truncated: true, page: 2, totalCount: 10 });
    await expect(getTree(fx.repo, "missing")).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("reads a blob as base64 with its size", async () => {
    const sha = await fx.cli.ok(["rev-parse", "main:README.md"], fx.repo.gitdir);
    expect(await getBlob(fx.repo, sha)).toEqual({
      sha,
      size: 10,
      encoding: "base64",
      content: Buffer.from("# fixture\n").toString("base64"),
    });
    await expect(getBlob(fx.repo, fx.shas.one)).rejects.toBeInstanceOf(GitNotFoundError);
    await expect(getBlob(fx.repo, "f".repeat(40))).rejects.toBeInstanceOf(GitNotFoundError);
  });

  it("lists refs, all or by prefix", async () => {
    const refs = await listRefs(fx.repo);
    expect(refs.map((ref) => ref.ref)).toEqual([
      "refs/heads/feature",
      "refs/heads/main",
      "refs/tags/v1",
      "refs/tags/v2",
    ]);
    expect(refs.find((ref) => ref.ref === "refs/tags/v2")?.type).toBe("tag");
    expect((await listRefs(fx.repo, "heads")).map((ref) => ref.sha)).toEqual([fx.shas.two, fx.shas.three]);
    expect((await listRefs(fx.repo, "tags/v1")).map((ref) => ref.ref)).toEqual(["refs/tags/v1"]);
    expect(await listRefs(fx.repo, "heads/zzz")).toEqual([]);
  });
});
