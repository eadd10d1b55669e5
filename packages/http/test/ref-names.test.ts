import { existsSync } from "node:fs";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "./repos.js";
import { openTestApp, type TestApp, type TestUser } from "./support.js";

/**
 * Names that lead from Bob's repository to Alice's private one on disk (`<root>/bob/public.git`
 * next to `<root>/alice/secret.git`), in every encoding a client can send, URL-encoded for a
 * path segment. Several depths, so whichever directory a name is joined to, one of them fits.
 */
function traversalNames(target: string): string[] {
  const names: string[] = [];
  for (let depth = 1; depth <= 6; depth++) {
    const up = (dots: string, slash: string) => `${dots}${slash}`.repeat(depth);
    names.push(
      encodeURIComponent(`${"../".repeat(depth)}${target}`),
      `${up("%2e%2e", "%2F")}${target.replaceAll("/", "%2F")}`,
      `${up("%2E%2E", "%2f")}${target.replaceAll("/", "%2f")}`,
      `${up("%252e%252e", "%252F")}${target.replaceAll("/", "%252F")}`,
      `${up("..", "%5C")}${target.replaceAll("/", "%5C")}`,
      encodeURIComponent(`refs/${"../".repeat(depth)}${target}`),
    );
  }
  return names;
}

describe.each(DIALECTS)("ref names from requests on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let secret: TestRepo;
  let pub: TestRepo;
  /** Every sha of Alice's repository that must never show up in an answer about Bob's. */
  const secretShas: string[] = [];

  const call = (user: TestUser, method: string, path: string, body?: unknown) =>
    t.call(method, path, { token: user.token, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice" });
    bob = await t.user({ name: "bob" });
    secret = await createRepo(t, alice, "secret", { private: true });
    pub = await createRepo(t, bob, "public");
    // Alice's repository gets its own history: a second commit on a branch, and a tag.
    const file = await call(alice, "POST", `${secret.path}/contents/secret.txt`, {
      content: Buffer.from("secret\n").toString("base64"),
      new_branch: "hidden",
    });
    expect(file.status).toBe(201);
    const tag = await call(alice, "POST", `${secret.path}/tags`, {
      tag_name: "v1",
      target: "hidden",
      message: "secret tag",
    });
    expect(tag.status).toBe(201);
    for (const ref of ["heads/main", "heads/hidden", "tags/v1"]) {
      const res = await call(alice, "GET", `${secret.path}/git/refs/${ref}`);
      expect(res.status).toBe(200);
      secretShas.push(res.json.object.sha);
    }
    expect(new Set(secretShas).size).toBe(3);
  });
  afterAll(() => t?.close());

  const targets = [
    "alice/secret.git/refs/heads/main",
    "alice/secret.git/refs/tags/v1",
    "alice/secret.git/HEAD",
  ];

  it("the names really lead to Alice's ref files from Bob's refs directories", () => {
    expect(existsSync(join(pub.gitdir, "refs/heads", "../../../../alice/secret.git/refs/heads/main"))).toBe(
      true,
    );
    expect(existsSync(join(pub.gitdir, "../../alice/secret.git/refs/tags/v1"))).toBe(true);
  });

  /**
   * 404, except where Forgejo answers otherwise for a name that is no commit: `git/trees` is 400
   * for anything it cannot read, `git/commits` is 422 for a name git's format refuses (a
   * double-encoded name decodes once to a valid name that names nothing: 404).
   */
  const expectedStatus = (path: string, name: string): number => {
    if (path.startsWith("/git/trees/")) return 400;
    if (path.startsWith("/git/commits/")) {
      const decoded = decodeURIComponent(name);
      return decoded.includes("..") || decoded.includes("\\") ? 422 : 404;
    }
    return 404;
  };

  it("every traversal name is 404 on every read of Bob's repository, and shows none of Alice's shas", async () => {
    const paths = (name: string) => [
      `/branches/${name}`,
      `/tags/${name}`,
      `/git/refs/${name}`,
      `/git/refs/heads/${name}`,
      `/git/refs/tags/${name}`,
      `/commits/${name}`,
      `/git/commits/${name}`,
      `/git/trees/${name}`,
      `/commits?sha=${name}`,
      `/contents?ref=${name}`,
      `/contents/README.md?ref=${name}`,
      `/raw/README.md?ref=${name}`,
      `/raw/${name}/README.md`,
      `/media/README.md?ref=${name}`,
    ];
    let checked = 0;
    for (const target of targets) {
      for (const name of traversalNames(target)) {
        for (const path of paths(name)) {
          for (const user of [bob, alice]) {
            const res = await call(user, "GET", `${pub.path}${path}`);
            expect(res.status, `${path} as ${user.name}`).toBe(expectedStatus(path, name));
            for (const sha of secretShas) expect(res.text, path).not.toContain(sha);
            checked++;
          }
        }
      }
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it("deleting a branch or tag by a traversal name is 404 and removes nothing of Alice's", async () => {
    for (const target of targets) {
      for (const name of traversalNames(target)) {
        for (const kind of ["branches", "tags"]) {
          const res = await call(bob, "DELETE", `${pub.path}/${kind}/${name}`);
          expect(res.status, `${kind}/${name}`).toBe(404);
        }
      }
    }
    for (const ref of ["heads/main", "heads/hidden", "tags/v1"]) {
      expect((await call(alice, "GET", `${secret.path}/git/refs/${ref}`)).status).toBe(200);
    }
  });

  const refused = [
    "HEAD",
    "-x",
    "a..b",
    "a.lock",
    "a//b",
    "@",
    "x@{y}",
    "a b",
    "a~1",
    "a:b",
    ".a",
    "a/",
    "../x",
  ];

  it("refuses to create branches named as git would refuse (422, Forgejo's GitRefName), and creates nothing", async () => {
    for (const name of refused) {
      const res = await call(bob, "POST", `${pub.path}/branches`, { new_branch_name: name });
      expect(res.status, name).toBe(422);
      expect(res.json.message, name).toBe("[BranchName]: GitRefName");
    }
    const badSource = await call(bob, "POST", `${pub.path}/branches`, {
      new_branch_name: "fine",
      old_ref_name: "../../../../alice/secret.git/refs/heads/main",
    });
    expect(badSource.status).toBe(422);
    expect(badSource.json.message).toBe("[OldRefName]: GitRefName");
    const badBranch = await call(bob, "POST", `${pub.path}/branches`, {
      new_branch_name: "fine",
      old_branch_name: "refs/heads/../../../../alice/secret.git/refs/heads/main",
    });
    expect(badBranch.status).toBe(422);
    expect(badBranch.json.message).toBe("[OldBranchName]: GitRefName");
    const branches = await call(bob, "GET", `${pub.path}/branches`);
    expect(branches.json.map((b: { name: string }) => b.name)).toEqual(["main"]);
    const ok = await call(bob, "POST", `${pub.path}/branches`, { new_branch_name: "x@y" });
    expect(ok.status).toBe(201);
  });

  it("refuses to create tags git tag refuses (422), and creates nothing", async () => {
    for (const name of refused) {
      const res = await call(bob, "POST", `${pub.path}/tags`, { tag_name: name });
      expect(res.status, name).toBe(422);
      expect(res.json.message, name).toBe(`release tag name is not valid [tag_name: ${name}]`);
    }
    expect((await call(bob, "GET", `${pub.path}/tags`)).json).toEqual([]);
    const refs = await call(bob, "GET", `${pub.path}/git/refs`);
    expect(refs.json.map((r: { ref: string }) => r.ref)).toEqual(["refs/heads/main", "refs/heads/x@y"]);
  });

  it("refuses a new branch git would refuse through the contents API too, and creates nothing", async () => {
    for (const name of ["HEAD", "-x", "a..b", "@"]) {
      const res = await call(bob, "POST", `${pub.path}/contents/new.txt`, {
        content: Buffer.from("new\n").toString("base64"),
        new_branch: name,
      });
      expect(res.status, name).toBe(422);
    }
    const refs = await call(bob, "GET", `${pub.path}/git/refs`);
    expect(refs.json.map((r: { ref: string }) => r.ref)).toEqual(["refs/heads/main", "refs/heads/x@y"]);
  });

  it("refuses a default branch git would refuse (422), also on an empty repository", async () => {
    const empty = await createRepo(t, bob, "empty", { empty: true });
    for (const repo of [pub, empty]) {
      for (const name of ["HEAD", "-x", "a..b", "../../../../alice/secret.git/refs/heads/main"]) {
        const res = await call(bob, "PATCH", repo.path, { default_branch: name });
        expect(res.status, `${repo.name}: ${name}`).toBe(422);
      }
      const after = await call(bob, "GET", repo.path);
      expect(after.json.default_branch).toBe("main");
    }
  });
});
