import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("a commit's diff and patch on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  let root: string;
  let second: string;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "diffs");
    secret = await createRepo(t, owner, "secret-diffs", { private: true });
    root = (await t.call("GET", `${repo.path}/branches/main`)).json.commit.id;
    const write = await t.call("POST", `${repo.path}/contents/notes.txt`, {
      token: owner.token,
      body: { content: Buffer.from("first line\n").toString("base64"), message: "Add notes" },
    });
    expect(write.status).toBe(201);
    second = write.json.commit.sha;
  });
  afterAll(() => t?.close());

  it("answers a commit's diff against its parent as plain text", async () => {
    const res = await t.call("GET", `${repo.path}/git/commits/${second}.diff`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(res.text).toMatch(/^diff --git a\/notes.txt b\/notes.txt\nnew file mode 100644\n/);
    expect(res.text).toContain("+first line\n");
    expect(res.text).not.toContain("README.md");
  });

  it("answers a commit as a mail-formatted patch", async () => {
    const res = await t.call("GET", `${repo.path}/git/commits/${second}.patch`);
    expect(res.status).toBe(200);
    expect(res.text).toMatch(new RegExp(`^From ${second} `));
    expect(res.text).toContain("Subject: [PATCH] Add notes");
    expect(res.text).toContain("+first line");
  });

  it("shows a root commit whole", async () => {
    const diff = await t.call("GET", `${repo.path}/git/commits/${root}.diff`);
    expect(diff.status).toBe(200);
    expect(diff.text).toContain("README.md");
    const patch = await t.call("GET", `${repo.path}/git/commits/${root}.patch`);
    expect(patch.text).toMatch(new RegExp(`^From ${root} `));
  });

  it("answers 404 for an unknown commit or a private repository, and still serves the commit itself", async () => {
    expect((await t.call("GET", `${repo.path}/git/commits/${"0".repeat(40)}.diff`)).status).toBe(404);
    expect(
      (await t.call("GET", `${secret.path}/git/commits/${root}.diff`, { token: outsider.token })).status,
    ).toBe(404);
    const commit = await t.call("GET", `${repo.path}/git/commits/${second}`);
    expect(commit.status).toBe(200);
    expect(commit.json.sha).toBe(second);
  });
});
