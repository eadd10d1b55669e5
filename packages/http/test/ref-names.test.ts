import { execFileSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { PayloadTooLargeError } from "@kiln/domain";
import type { QuotaOwner } from "@kiln/service";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { addRepository } from "./quota-support.js";
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
    // Over a thousand requests in one test: on a loaded 2-core CI machine this outlasts the
    // default 60 s. The limit only stops a hung run; it measures nothing.
  }, 300_000);

  it("deleting a branch or tag by a traversal name is 422 (404 once it decodes to a valid name) and removes nothing of Alice's", async () => {
    let refused = 0;
    for (const target of targets) {
      for (const name of traversalNames(target)) {
        const decoded = decodeURIComponent(name);
        const invalid = decoded.includes("..") || decoded.includes("\\");
        for (const kind of ["branches", "tags"]) {
          const res = await call(bob, "DELETE", `${pub.path}/${kind}/${name}`);
          expect(res.status, `${kind}/${name}`).toBe(invalid ? 422 : 404);
          if (invalid) {
            expect(res.json.message).toBe(
              `${kind === "tags" ? "tag" : "branch"} name is not valid [name: ${decoded}]`,
            );
            refused++;
          }
        }
      }
    }
    expect(refused).toBeGreaterThan(100);
    for (const ref of ["heads/main", "heads/hidden", "tags/v1"]) {
      expect((await call(alice, "GET", `${secret.path}/git/refs/${ref}`)).status).toBe(200);
    }
  });

  it("deletes by name as git's ref format allows: 422 for a name no ref can have, 404 for a missing one, and removes old refs git only refuses to create", async () => {
    for (const name of ["a..b", "a.lock", "x@{y}", "a b", "a~1", ".a", "a/"]) {
      const encoded = encodeURIComponent(name);
      const branch = await call(bob, "DELETE", `${pub.path}/branches/${encoded}`);
      expect(branch.status, name).toBe(422);
      expect(branch.json.message).toBe(`branch name is not valid [name: ${name}]`);
      const tag = await call(bob, "DELETE", `${pub.path}/tags/${encoded}`);
      expect(tag.status, name).toBe(422);
      expect(tag.json.message).toBe(`tag name is not valid [name: ${name}]`);
    }
    expect((await call(bob, "DELETE", `${pub.path}/branches/missing`)).status).toBe(404);
    expect((await call(bob, "DELETE", `${pub.path}/tags/missing`)).status).toBe(404);
    // Refs under names git refuses to create, left from before Kiln refused them, can go.
    const main = (await call(bob, "GET", `${pub.path}/branches/main`)).json.commit.id as string;
    for (const ref of ["refs/heads/HEAD", "refs/heads/-x", "refs/heads/@", "refs/tags/HEAD"]) {
      execFileSync("git", ["--git-dir", pub.gitdir, "update-ref", ref, main]);
    }
    for (const path of ["branches/HEAD", "branches/-x", "branches/@", "tags/HEAD"]) {
      expect((await call(bob, "DELETE", `${pub.path}/${path}`)).status, path).toBe(204);
      expect((await call(bob, "DELETE", `${pub.path}/${path}`)).status, path).toBe(404);
    }
    const refs = await call(bob, "GET", `${pub.path}/git/refs`);
    expect(refs.json.map((r: { ref: string }) => r.ref)).toEqual(["refs/heads/main"]);
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

  it("refuses an invalid new branch name with 422 before the quota, which an over-quota owner meets only with a valid one", async () => {
    const admin = await t.user({ admin: true });
    const carol = await t.user({ name: "carol" });
    const mine = await createRepo(t, carol, "mine");
    await addRepository(t, carol, { gitSize: 10_000 });
    const deny = await call(admin, "POST", "/admin/quota/groups", {
      name: "deny",
      rules: [{ name: "deny-all", limit: 0, subjects: ["size:all"] }],
    });
    expect(deny.status).toBe(201);
    expect((await call(admin, "PUT", "/admin/quota/groups/deny/users/carol")).status).toBe(204);
    expect(await t.services.quota.check(carol.id, "size:repos:all")).toBe(false);
    // What the opt-in `[quota] ENFORCE` does in the hook (QuotaService.enforce).
    const enforce = vi
      .spyOn(t.services.quota, "enforce")
      .mockImplementation(async (owner: QuotaOwner, subject) => {
        if (!(await t.services.quota.check(owner.id, subject)))
          throw new PayloadTooLargeError("quota exceeded", { user_id: owner.id, username: owner.name });
      });
    try {
      for (const name of ["HEAD", "-x", "a..b", "@"]) {
        const res = await call(carol, "POST", `${mine.path}/branches`, { new_branch_name: name });
        expect(res.status, name).toBe(422);
        expect(res.json.message, name).toBe("[BranchName]: GitRefName");
      }
      for (const [field, body] of [
        ["OldBranchName", { old_branch_name: "a..b" }],
        ["OldRefName", { old_ref_name: "../x" }],
      ] as const) {
        const res = await call(carol, "POST", `${mine.path}/branches`, { new_branch_name: "fine", ...body });
        expect(res.status, field).toBe(422);
        expect(res.json.message).toBe(`[${field}]: GitRefName`);
      }
      expect(enforce).not.toHaveBeenCalled();
      const valid = await call(carol, "POST", `${mine.path}/branches`, { new_branch_name: "fine" });
      expect(valid.status).toBe(413);
      expect(enforce).toHaveBeenCalledTimes(1);
    } finally {
      enforce.mockRestore();
    }
    const branches = await call(carol, "GET", `${mine.path}/branches`);
    expect(branches.json.map((b: { name: string }) => b.name)).toEqual(["main"]);
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
