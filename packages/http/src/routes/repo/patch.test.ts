import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp, TestUser } from "../../../test/support.js";
import { type AsCaller, openWorld } from "../../../test/world.js";

const b64 = (text: string) => Buffer.from(text).toString("base64");

const PATCH = [
  "diff --git a/hello.txt b/hello.txt",
  "--- a/hello.txt",
  "+++ b/hello.txt",
  "@@ -1 +1,2 @@",
  " hello",
  "+world",
  "diff --git a/new.txt b/new.txt",
  "new file mode 100644",
  "--- /dev/null",
  "+++ b/new.txt",
  "@@ -0,0 +1 @@",
  "+fresh",
  "",
].join("\n");

describe.each(DIALECTS)("POST /diffpatch on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  const path = "/repos/owner/patched";

  let as: AsCaller;
  const raw = async (file: string, ref: string) =>
    (
      await t.app.request(`/api/v1${path}/raw/${file}?ref=${ref}`, {
        headers: { Authorization: `token ${owner.token}` },
      })
    ).text();

  beforeAll(async () => {
    ({
      t,
      as,
      users: [owner, writer, reader],
    } = await openWorld(dialect, {
      users: ["owner", "writer", "reader"],
      repo: { name: "patched" },
      collaborators: { writer: "write", reader: "read" },
    }));
    expect((await as(owner, "POST", "/contents/hello.txt", { content: b64("hello\n") })).status).toBe(201);
    expect((await as(owner, "POST", "/branches", { new_branch_name: "guarded" })).status).toBe(201);
    expect((await as(owner, "POST", "/branch_protections", { rule_name: "guarded" })).status).toBe(201);
  });
  afterAll(() => t?.close());

  it("commits the patch to the branch (201, FileResponse) with Forgejo's default message", async () => {
    const res = await as(writer, "POST", "/diffpatch", { content: PATCH, branch: "main" });
    expect(res.status).toBe(201);
    expect(res.json.content).toBeNull();
    expect(res.json.commit.message).toBe("apply-patch\n");
    expect(res.json.commit.author.email).toBe("writer@example.com");
    const head = (await as(owner, "GET", "/branches/main")).json.commit.id;
    expect(res.json.commit.sha).toBe(head);
    expect(await raw("hello.txt", "main")).toBe("hello\nworld\n");
    expect(await raw("new.txt", "main")).toBe("fresh\n");
  });

  it("answers 422 for a patch that does not apply, leaving the branch as it was", async () => {
    const before = (await as(owner, "GET", "/branches/main")).json.commit.id;
    const res = await as(writer, "POST", "/diffpatch", { content: PATCH, message: "again" });
    expect(res.status).toBe(422);
    expect(res.json.message).toMatch(/^patch does not apply/);
    expect((await as(writer, "POST", "/diffpatch", { content: "not a diff" })).status).toBe(422);
    // A binary hunk that would inflate past 64 MiB is refused before git reads it.
    const bomb = [
      "diff --git a/big.bin b/big.bin",
      "new file mode 100644",
      "index 0000000..1111111",
      "GIT binary patch",
      "literal 1000000000",
      "zcmeIuF#!Mo0K%a4Pi+Q-h(KY$fB^#r3>YwAz<>b*1`HT5V8DO@0|pEjFkrxd0Rsm9",
      "",
      "literal 0",
      "HcmV?d00001",
      "",
    ].join("\n");
    const refused = await as(writer, "POST", "/diffpatch", { content: bomb });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toMatch(/binary hunk of 1000000000 bytes is too large/);
    expect((await as(owner, "GET", "/branches/main")).json.commit.id).toBe(before);
  });

  it("commits to a new branch, 404 for a missing branch, 422 for an existing new branch", async () => {
    const reverse = PATCH.replace("+world", "+there");
    const fresh = await as(owner, "POST", "/contents/other.txt", { content: b64("x\n"), new_branch: "side" });
    expect(fresh.status).toBe(201);
    expect((await as(writer, "POST", "/diffpatch", { content: reverse, branch: "nope" })).status).toBe(404);
    const res = await as(writer, "POST", "/diffpatch", {
      content: reverse,
      branch: "guarded",
      new_branch: "topic",
    });
    expect(res.status).toBe(201);
    expect(await raw("hello.txt", "topic")).toBe("hello\nthere\n");
    expect((await as(writer, "POST", "/diffpatch", { content: reverse, new_branch: "side" })).status).toBe(
      422,
    );
  });

  it("keeps branch protection: 403 for a writer the rule does not allow; readers 403, anonymous 401", async () => {
    const reverse = PATCH.replace("+world", "+there");
    const res = await as(writer, "POST", "/diffpatch", { content: reverse, branch: "guarded" });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe("user cannot commit to repo [user: writer]");
    expect((await as(reader, "POST", "/diffpatch", { content: reverse })).status).toBe(403);
    expect((await as(null, "POST", "/diffpatch", { content: reverse })).status).toBe(401);
  });
});
