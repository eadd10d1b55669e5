import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp, TestUser } from "../../../test/support.js";
import { type AsCaller, openWorld } from "../../../test/world.js";

describe.each(DIALECTS)("git notes and annotated tags over HTTP on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let head: string;

  let as: AsCaller;

  beforeAll(async () => {
    ({
      t,
      as,
      users: [owner, reader],
    } = await openWorld(dialect, { users: ["owner", "reader"], repo: { name: "noted" } }));
    head = (await as(owner, "GET", "/branches/main")).json.commit.id;
  });
  afterAll(() => t?.close());

  it("has no note at first (404), and refuses a name that is no ref (422)", async () => {
    expect((await as(reader, "GET", `/git/notes/${head}`)).status).toBe(404);
    expect((await as(reader, "GET", "/git/notes/deadbeefdeadbeef")).status).toBe(404);
    const bad = await as(reader, "GET", "/git/notes/a..b");
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe("no valid ref or sha: a..b");
  });

  it("sets a note for a writer (200, Forgejo's Note), which anyone who reads the code can read", async () => {
    expect((await as(reader, "POST", "/git/notes/main", { message: "nope" })).status).toBe(403);
    expect((await as(null, "POST", "/git/notes/main", { message: "nope" })).status).toBe(401);
    const set = await as(owner, "POST", "/git/notes/main", { message: "reviewed" });
    expect(set.status).toBe(200);
    expect(set.json.message).toBe("reviewed\n");
    expect(set.json.commit.commit.author.email).toBe("owner@example.com");
    const got = await as(reader, "GET", `/git/notes/${head}?files=false`);
    expect(got.status).toBe(200);
    expect(got.json.message).toBe("reviewed\n");
    expect(got.json.commit.sha).toBe(set.json.commit.sha);
    expect(got.json.commit.files).toBeUndefined();
    const replaced = await as(owner, "POST", `/git/notes/${head.slice(0, 10)}`, { message: "again" });
    expect(replaced.json.message).toBe("again\n");
    expect(replaced.json.commit.sha).not.toBe(set.json.commit.sha);
  });

  it("removes a note (204), then 404", async () => {
    expect((await as(reader, "DELETE", `/git/notes/${head}`)).status).toBe(403);
    expect((await as(owner, "DELETE", `/git/notes/${head}`)).status).toBe(204);
    expect((await as(owner, "GET", `/git/notes/${head}`)).status).toBe(404);
    expect((await as(owner, "DELETE", `/git/notes/${head}`)).status).toBe(404);
    // An archived repository takes no notes (423), as it takes no other change.
    expect((await as(owner, "PATCH", "", { archived: true })).status).toBe(200);
    expect((await as(owner, "POST", `/git/notes/${head}`, { message: "late" })).status).toBe(423);
    expect((await as(owner, "PATCH", "", { archived: false })).status).toBe(200);
  });

  it("answers an annotated tag by its sha, and 400 for a lightweight tag or an unknown sha", async () => {
    const annotated = await as(owner, "POST", "/tags", { tag_name: "v1", message: "release one" });
    expect(annotated.status).toBe(201);
    const res = await as(reader, "GET", `/git/tags/${annotated.json.id}`);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      tag: "v1",
      sha: annotated.json.id,
      message: "release one\n",
      object: { type: "commit", sha: head },
      verification: { verified: false, reason: "gpg.error.not_signed_commit" },
    });
    expect(res.json.url).toMatch(new RegExp(`/api/v1/repos/owner/noted/git/tags/${annotated.json.id}$`));
    expect(res.json.tagger.email).toBe("owner@example.com");
    const light = await as(owner, "POST", "/tags", { tag_name: "v1-light" });
    expect((await as(reader, "GET", `/git/tags/${light.json.id}`)).status).toBe(400);
    expect((await as(reader, "GET", `/git/tags/${"0".repeat(40)}`)).status).toBe(400);
    expect((await as(reader, "GET", "/git/tags/xyz")).status).toBe(400);
  });
});
