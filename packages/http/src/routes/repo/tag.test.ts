import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, refresh, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("tags over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let reader: TestUser;
  let repo: TestRepo;
  let first: string;
  let second: string;

  const as = (user: TestUser | null, method: string, path: string, body?: unknown) =>
    t.call(method, `${repo.path}${path}`, {
      ...(user ? { token: user.token } : {}),
      ...(body !== undefined ? { body } : {}),
    });

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice" });
    reader = await t.user({ name: "reader" });
    repo = await createRepo(t, alice, "tagged");
    first = (await as(alice, "GET", "/branches/main")).json.commit.id;
    second = await commitWithGit(repo.gitdir, "main", { "b.txt": "b\n" }, "Second", "2030-01-01T00:00:00Z");
    await refresh(t, repo);
    expect((await as(alice, "PUT", "/collaborators/reader", { permission: "read" })).status).toBe(204);
  });
  afterAll(() => t?.close());

  it("creates a lightweight tag at the default branch and an annotated one at a given target", async () => {
    const light = await as(alice, "POST", "/tags", { tag_name: "v1.0" });
    expect(light.status).toBe(201);
    expect(light.json).toMatchObject({
      name: "v1.0",
      id: second,
      message: "Second",
      commit: { sha: second, url: `http://kiln.test/api/v1${repo.path}/git/commits/${second}` },
      zipball_url: "http://kiln.test/alice/tagged/archive/v1.0.zip",
      tarball_url: "http://kiln.test/alice/tagged/archive/v1.0.tar.gz",
    });
    const annotated = await as(alice, "POST", "/tags", {
      tag_name: "release/0.1",
      target: first,
      message: "First release\n\nNotes.",
    });
    expect(annotated.status).toBe(201);
    expect(annotated.json).toMatchObject({
      name: "release/0.1",
      message: "First release\n\nNotes.",
      commit: { sha: first },
    });
    expect(annotated.json.id).not.toBe(first);
    const ref = await as(alice, "GET", "/git/refs/tags/release/0.1");
    expect(ref.json).toMatchObject({
      ref: "refs/tags/release/0.1",
      object: { type: "tag", sha: annotated.json.id },
    });
  });

  it("refuses a taken name (409), a missing target (404), a bad name (422) and readers (403)", async () => {
    expect((await as(alice, "POST", "/tags", { tag_name: "v1.0" })).status).toBe(409);
    expect((await as(alice, "POST", "/tags", { tag_name: "v9", target: "ghost" })).status).toBe(404);
    expect((await as(alice, "POST", "/tags", { tag_name: "bad..tag" })).status).toBe(422);
    const head = await as(alice, "POST", "/tags", { tag_name: "HEAD" });
    expect(head.status).toBe(422);
    expect(head.json.message).toBe("release tag name is not valid [tag_name: HEAD]");
    expect((await as(alice, "GET", "/tags/HEAD")).status).toBe(404);
    expect((await as(alice, "POST", "/tags", {})).status).toBe(422);
    expect((await as(reader, "POST", "/tags", { tag_name: "r1" })).status).toBe(403);
  });

  it("lists tags newest first with paging headers, and gets one by a name with slashes", async () => {
    const list = await as(reader, "GET", "/tags");
    expect(list.status).toBe(200);
    // v1.0 tags a commit dated 2030, newer than the annotated tag made now.
    expect(list.json.map((tag: { name: string }) => tag.name)).toEqual(["v1.0", "release/0.1"]);
    expect(list.headers.get("X-Total-Count")).toBe("2");
    const page = await as(reader, "GET", "/tags?limit=1&page=2");
    expect(page.json).toHaveLength(1);
    expect(page.headers.get("Link")).toContain('rel="first"');
    const one = await as(null, "GET", "/tags/release/0.1");
    expect(one.status).toBe(200);
    expect(one.json.name).toBe("release/0.1");
    expect((await as(null, "GET", "/tags/nope")).status).toBe(404);
  });

  it("deletes a tag (204), then it is gone (404)", async () => {
    expect((await as(reader, "DELETE", "/tags/v1.0")).status).toBe(403);
    expect((await as(alice, "DELETE", "/tags/v1.0")).status).toBe(204);
    expect((await as(alice, "GET", "/tags/v1.0")).status).toBe(404);
    expect((await as(alice, "DELETE", "/tags/v1.0")).status).toBe(404);
  });

  it("lists no tags on an empty repository and cannot tag it", async () => {
    const empty = await createRepo(t, alice, "untagged", { empty: true });
    expect((await t.call("GET", `${empty.path}/tags`, { token: alice.token })).json).toEqual([]);
    const res = await t.call("POST", `${empty.path}/tags`, { token: alice.token, body: { tag_name: "v1" } });
    expect(res.status).toBe(404);
  });
});
