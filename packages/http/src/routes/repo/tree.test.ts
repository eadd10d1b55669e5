import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, refresh, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("refs, trees, blobs and languages over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let repo: TestRepo;
  let head: string;

  const get = (path: string) => t.call("GET", `${repo.path}${path}`, { token: alice.token });

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice" });
    repo = await createRepo(t, alice, "objects");
    head = await commitWithGit(repo.gitdir, "main", {
      "src/main.go": "package main\n\nfunc main() {}\n",
      "src/util.go": "package main\n",
      "web/app.ts": "export const x = 1;\n",
      "vendor/lib.go": "package lib\n".repeat(100),
    });
    await commitWithGit(repo.gitdir, "main2", { "x.txt": "x\n" });
    await refresh(t, repo);
  });
  afterAll(() => t?.close());

  it("lists all refs, refs by prefix as an array, and an exact ref as an object", async () => {
    const all = await get("/git/refs");
    expect(all.status).toBe(200);
    expect(all.json.map((r: { ref: string }) => r.ref)).toEqual(["refs/heads/main", "refs/heads/main2"]);
    expect(all.json[0]).toEqual({
      ref: "refs/heads/main",
      url: `http://kiln.test/api/v1${repo.path}/git/refs/heads/main`,
      object: { type: "commit", sha: head, url: `http://kiln.test/api/v1${repo.path}/git/commits/${head}` },
    });
    const prefix = await get("/git/refs/heads/ma");
    expect(Array.isArray(prefix.json)).toBe(true);
    expect(prefix.json).toHaveLength(2);
    const exact = await get("/git/refs/heads/main2");
    expect(exact.json).toMatchObject({ ref: "refs/heads/main2" });
    const prefixOfOne = await get("/git/refs/heads/main");
    expect(Array.isArray(prefixOfOne.json)).toBe(true);
    expect((await get("/git/refs/tags")).status).toBe(404);
  });

  it("lists a tree by commit, branch or tree sha, recursively and by page", async () => {
    const top = await get(`/git/trees/${head}`);
    expect(top.status).toBe(200);
    expect(top.json.tree.map((e: { path: string }) => e.path)).toEqual(["README.md", "src", "vendor", "web"]);
    const src = top.json.tree.find((e: { path: string }) => e.path === "src");
    expect(src).toMatchObject({
      type: "tree",
      mode: "040000",
      url: expect.stringContaining(`/git/trees/${src.sha}`),
    });
    const sub = await get(`/git/trees/${src.sha}`);
    expect(sub.json.tree.map((e: { path: string }) => e.path)).toEqual(["main.go", "util.go"]);
    const recursive = await get("/git/trees/main?recursive=true&per_page=3&page=2");
    expect(recursive.json).toMatchObject({ page: 2, total_count: 8, truncated: true });
    expect(recursive.json.tree.map((e: { path: string }) => e.path)).toEqual([
      "src/util.go",
      "vendor",
      "vendor/lib.go",
    ]);
    expect(recursive.headers.get("X-Total-Count")).toBe("8");
    const blobEntry = recursive.json.tree[0];
    expect(blobEntry).toMatchObject({ type: "blob", mode: "100644", size: 13 });
    expect((await get(`/git/trees/${"0".repeat(40)}`)).status).toBe(400);
  });

  it("reads a blob as base64, and answers 400 for one that does not exist", async () => {
    const tree = await get("/git/trees/main?recursive=true");
    const util = tree.json.tree.find((e: { path: string }) => e.path === "src/util.go");
    const blob = await get(`/git/blobs/${util.sha}`);
    expect(blob.json).toEqual({
      content: Buffer.from("package main\n").toString("base64"),
      encoding: "base64",
      url: `http://kiln.test/api/v1${repo.path}/git/blobs/${util.sha}`,
      sha: util.sha,
      size: 13,
    });
    expect((await get(`/git/blobs/${"0".repeat(40)}`)).status).toBe(400);
  });

  it("counts bytes per language on the default branch, skipping vendored code and documentation", async () => {
    const res = await get("/languages");
    expect(res.status).toBe(200);
    // README.md is documentation and vendor/ is vendored: neither counts.
    expect(res.json).toEqual({ Go: 42, TypeScript: 20 });
    const empty = await createRepo(t, alice, "no-code", { empty: true });
    expect((await t.call("GET", `${empty.path}/languages`, { token: alice.token })).json).toEqual({});
  });
});
