import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, refresh, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("branches over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let repo: TestRepo;
  let mainSha: string;

  const as = (user: TestUser | null, method: string, path: string, body?: unknown) =>
    t.call(method, `${repo.path}${path}`, {
      ...(user ? { token: user.token } : {}),
      ...(body !== undefined ? { body } : {}),
    });

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice" });
    writer = await t.user({ name: "writer" });
    reader = await t.user({ name: "reader" });
    repo = await createRepo(t, alice, "branchy");
    for (const [user, permission] of [
      [writer, "write"],
      [reader, "read"],
    ] as const) {
      expect((await as(alice, "PUT", `/collaborators/${user.name}`, { permission })).status).toBe(204);
    }
    mainSha = (await as(alice, "GET", "/branches/main")).json.commit.id;
  });
  afterAll(() => t?.close());

  it("gets a branch with its head commit as a PayloadCommit", async () => {
    const res = await as(alice, "GET", "/branches/main");
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      name: "main",
      protected: false,
      user_can_push: true,
      user_can_merge: true,
      effective_branch_protection_name: "",
      status_check_contexts: [],
      commit: {
        id: mainSha,
        url: `http://kiln.test/alice/branchy/commit/${mainSha}`,
        author: { name: "alice", email: "alice@example.com", username: "alice" },
        verification: { verified: false },
      },
    });
    const anonymous = await as(null, "GET", "/branches/main");
    expect(anonymous.json).toMatchObject({ user_can_push: false, user_can_merge: false });
    const asReader = await as(reader, "GET", "/branches/main");
    expect(asReader.json).toMatchObject({ user_can_push: false, user_can_merge: false });
    expect((await as(alice, "GET", "/branches/nope")).status).toBe(404);
  });

  it("creates branches from the default branch, another branch or any ref, with slashes in names", async () => {
    const plain = await as(writer, "POST", "/branches", { new_branch_name: "dev" });
    expect(plain.status).toBe(201);
    expect(plain.json).toMatchObject({ name: "dev", commit: { id: mainSha } });
    const devSha = await commitWithGit(
      repo.gitdir,
      "dev",
      { "dev.txt": "dev\n" },
      "Dev",
      "2030-01-01T00:00:00Z",
    );
    await refresh(t, repo);
    const fromBranch = await as(writer, "POST", "/branches", {
      new_branch_name: "feature/login",
      old_branch_name: "dev",
    });
    expect(fromBranch.status).toBe(201);
    expect(fromBranch.json.commit.id).toBe(devSha);
    const fromSha = await as(writer, "POST", "/branches", {
      new_branch_name: "at-main",
      old_ref_name: mainSha,
    });
    expect(fromSha.json.commit.id).toBe(mainSha);
    const get = await as(alice, "GET", "/branches/feature/login");
    expect(get.status).toBe(200);
    expect(get.json.name).toBe("feature/login");
  });

  it("refuses to create from a missing source (404), onto a taken name (409) or without write access (403)", async () => {
    const missing = await as(writer, "POST", "/branches", { new_branch_name: "x", old_branch_name: "ghost" });
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe("The old branch does not exist");
    expect(
      (await as(writer, "POST", "/branches", { new_branch_name: "y", old_ref_name: "ghost" })).status,
    ).toBe(404);
    const taken = await as(writer, "POST", "/branches", { new_branch_name: "dev" });
    expect(taken.status).toBe(409);
    expect((await as(writer, "POST", "/branches", { new_branch_name: "feature" })).status).toBe(409);
    expect((await as(reader, "POST", "/branches", { new_branch_name: "r" })).status).toBe(403);
    const bad = await as(writer, "POST", "/branches", { new_branch_name: "bad..name" });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe("[BranchName]: GitRefName");
    for (const name of ["HEAD", "-x", "@"]) {
      expect((await as(writer, "POST", "/branches", { new_branch_name: name })).status, name).toBe(422);
    }
    expect((await as(alice, "GET", "/branches/HEAD")).status).toBe(404);
  });

  it("refuses branch creation on an empty repository with 404, like Forgejo", async () => {
    const empty = await createRepo(t, alice, "branchless", { empty: true });
    const res = await t.call("POST", `${empty.path}/branches`, {
      token: alice.token,
      body: { new_branch_name: "x" },
    });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe("Git Repository is empty.");
    // The name is checked first, as Forgejo's binding does before the handler runs.
    const bad = await t.call("POST", `${empty.path}/branches`, {
      token: alice.token,
      body: { new_branch_name: "HEAD" },
    });
    expect(bad.status).toBe(422);
    const list = await t.call("GET", `${empty.path}/branches`, { token: alice.token });
    expect(list.json).toEqual([]);
  });

  it("lists branches newest head first, paginated with X-Total-Count and Link", async () => {
    const all = await as(alice, "GET", "/branches");
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("4");
    const names = all.json.map((b: { name: string }) => b.name);
    expect(names.slice(0, 2).sort()).toEqual(["dev", "feature/login"]);
    expect(names.slice(2)).toEqual(["at-main", "main"]);
    const page = await as(alice, "GET", "/branches?limit=3&page=2");
    expect(page.json.map((b: { name: string }) => b.name)).toEqual(["main"]);
    expect(page.headers.get("Link")).toContain('rel="prev"');
  });

  it("never deletes the default branch (403) nor a protected one (403); deletes others (204)", async () => {
    const def = await as(alice, "DELETE", "/branches/main");
    expect(def.status).toBe(403);
    expect(def.json.message).toBe("can not delete default branch");
    expect((await as(alice, "POST", "/branch_protections", { rule_name: "feature/*" })).status).toBe(201);
    const prot = await as(alice, "DELETE", "/branches/feature/login");
    expect(prot.status).toBe(403);
    expect(prot.json.message).toBe("branch protected");
    expect((await as(reader, "DELETE", "/branches/at-main")).status).toBe(403);
    expect((await as(writer, "DELETE", "/branches/at-main")).status).toBe(204);
    expect((await as(alice, "GET", "/branches/at-main")).status).toBe(404);
    expect((await as(writer, "DELETE", "/branches/at-main")).status).toBe(404);
  });

  it("shows protection on branches: the rule's name to admins only, push and merge per the rule", async () => {
    const asAdmin = await as(alice, "GET", "/branches/feature/login");
    expect(asAdmin.json).toMatchObject({
      protected: true,
      effective_branch_protection_name: "feature/*",
      user_can_push: false,
      user_can_merge: true,
    });
    const asWriter = await as(writer, "GET", "/branches/feature/login");
    expect(asWriter.json).toMatchObject({ protected: true, effective_branch_protection_name: "" });
    await as(alice, "PATCH", "/branch_protections/feature%2F*", { enable_push: true, required_approvals: 2 });
    const after = await as(writer, "GET", "/branches/feature/login");
    expect(after.json).toMatchObject({ user_can_push: true, required_approvals: 2 });
  });
});
