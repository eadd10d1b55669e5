import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoOnDisk, usageOf } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("repositories over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    t = await openTestApp(dialect, { repository: { maxCreationLimit: 20 } });
    alice = await t.user({ name: "alice" });
    bob = await t.user({ name: "bob" });
    admin = await t.user({ name: "root", admin: true });
  });
  afterAll(() => t?.close());

  const usage = (name: string) => usageOf(t, name);
  const onDisk = (owner: string, name: string) => repoOnDisk(t, owner, name);

  it("creates a repository with a README commit on the chosen default branch", async () => {
    const res = await t.call("POST", "/user/repos", {
      token: alice.token,
      body: { name: "first", description: "the first one", auto_init: true, default_branch: "trunk" },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      name: "first",
      full_name: "alice/first",
      description: "the first one",
      private: false,
      empty: false,
      default_branch: "trunk",
      owner: { login: "alice" },
      clone_url: "http://kiln.test/alice/first.git",
      html_url: "http://kiln.test/alice/first",
      permissions: { admin: true, push: true, pull: true },
    });
    expect(onDisk("alice", "first")).toBe(true);
    const head = execFileSync(
      "git",
      ["--git-dir", join(t.settings.repository.root, "alice", "first.git"), "log", "--format=%s", "trunk"],
      { encoding: "utf8" },
    );
    expect(head.trim()).toBe("Initial commit");
    expect((await usage("alice")).reposPublic).toBeGreaterThan(0);
  });

  it("creates an empty repository without auto_init and refuses bad or taken names", async () => {
    const empty = await t.call("POST", "/user/repos", { token: alice.token, body: { name: "empty-one" } });
    expect(empty.json).toMatchObject({ empty: true, default_branch: "main" });
    const taken = await t.call("POST", "/user/repos", { token: alice.token, body: { name: "FIRST" } });
    expect(taken.status).toBe(409);
    expect(taken.json.message).toBe("The repository with the same name already exists.");
    for (const name of ["bad name", "x.git", "..", "a".repeat(101)]) {
      expect((await t.call("POST", "/user/repos", { token: alice.token, body: { name } })).status, name).toBe(
        422,
      );
    }
    expect((await t.call("POST", "/user/repos", { token: alice.token, body: {} })).json.message).toBe(
      "[Name]: Required",
    );
    expect(
      (
        await t.call("POST", "/user/repos", {
          token: alice.token,
          body: { name: "b", default_branch: "bad..name" },
        })
      ).status,
    ).toBe(422);
  });

  it("enforces the creation limit, with a per-user override", async () => {
    const limited = await openTestApp(dialect, { repository: { maxCreationLimit: 1 } });
    try {
      const u = await limited.user();
      const root = await limited.user({ admin: true });
      expect(
        (await limited.call("POST", "/user/repos", { token: u.token, body: { name: "one" } })).status,
      ).toBe(201);
      const refused = await limited.call("POST", "/user/repos", { token: u.token, body: { name: "two" } });
      expect(refused.status).toBe(403);
      expect(refused.json.message).toBe("You have already reached your limit of 1 repositories.");
      expect((await limited.call("GET", "/repos/search?q=two")).json.data).toEqual([]);
      await limited.call("PATCH", `/admin/users/${u.name}`, {
        token: root.token,
        body: { max_repo_creation: 2 },
      });
      expect(
        (await limited.call("POST", "/user/repos", { token: u.token, body: { name: "two" } })).status,
      ).toBe(201);
      expect((await limited.call("GET", "/settings/repository")).json.max_creation_limit).toBe(1);
    } finally {
      await limited.close();
    }
  });

  it("creates organization repositories for owners and teams allowed to, 403 for other members", async () => {
    expect((await t.call("POST", "/orgs", { token: alice.token, body: { username: "acme" } })).status).toBe(
      201,
    );
    expect(
      (
        await t.call("POST", "/orgs/acme/repos", {
          token: alice.token,
          body: { name: "tools", private: true },
        })
      ).status,
    ).toBe(201);
    const team = await t.call("POST", "/orgs/acme/teams", {
      token: alice.token,
      body: { name: "devs", permission: "write", units: ["repo.code"] },
    });
    await t.call("PUT", `/teams/${team.json.id}/members/bob`, { token: alice.token });
    const refused = await t.call("POST", "/orgs/acme/repos", { token: bob.token, body: { name: "nope" } });
    expect(refused.status).toBe(403);
    await t.call("PATCH", `/teams/${team.json.id}`, {
      token: alice.token,
      body: { name: "devs", can_create_org_repo: true },
    });
    expect(
      (await t.call("POST", "/orgs/acme/repos", { token: bob.token, body: { name: "bobs" } })).status,
    ).toBe(201);
    expect((await t.call("GET", "/orgs/acme")).json.repos_count).toBe(1);
  });

  it("hides private repositories (404) from anyone without access, on every route", async () => {
    expect(
      (
        await t.call("POST", "/user/repos", {
          token: alice.token,
          body: { name: "secret", private: true, auto_init: true },
        })
      ).status,
    ).toBe(201);
    const id = (await t.call("GET", "/repos/alice/secret", { token: alice.token })).json.id;
    for (const token of [bob.token, undefined]) {
      expect((await t.call("GET", "/repos/alice/secret", token ? { token } : {})).status).toBe(404);
      expect((await t.call("GET", "/repos/alice/secret/collaborators", token ? { token } : {})).status).toBe(
        token ? 404 : 401,
      );
    }
    expect((await t.call("GET", `/repositories/${id}`, { token: bob.token })).status).toBe(404);
    expect((await t.call("DELETE", "/repos/alice/secret", { token: bob.token })).status).toBe(404);
    expect((await t.call("GET", "/repos/alice/secret", { token: admin.token })).status).toBe(200);
    const search = await t.call("GET", "/repos/search?q=secret", { token: bob.token });
    expect(search.json.data).toEqual([]);
  });

  it("answers a search by an owner the caller may not see as one by an id nobody has: 200, nothing", async () => {
    const org = await t.call("POST", "/orgs", {
      token: alice.token,
      body: { username: "hidden-search-org", visibility: "private" },
    });
    expect(org.status).toBe(201);
    const made = await t.call("POST", "/orgs/hidden-search-org/repos", {
      token: alice.token,
      body: { name: "inside", auto_init: false },
    });
    expect(made.status).toBe(201);
    const seen = await t.call("GET", `/repos/search?uid=${org.json.id}`, { token: alice.token });
    expect(seen.json.data.map((r: { full_name: string }) => r.full_name)).toEqual([
      "hidden-search-org/inside",
    ]);
    const missing = 2 ** 40;
    for (const token of [bob.token, undefined]) {
      for (const uid of [org.json.id, missing]) {
        for (const extra of ["", "&exclusive=true"]) {
          const res = await t.call("GET", `/repos/search?uid=${uid}${extra}`, token ? { token } : {});
          expect(res.status, `uid ${uid}${extra}`).toBe(200);
          expect(res.json).toEqual({ ok: true, data: [] });
          expect(res.headers.get("x-total-count")).toBe("0");
        }
      }
    }
  });

  it("lets collaborators in according to their mode, and only admins manage them", async () => {
    expect(
      (
        await t.call("PUT", "/repos/alice/secret/collaborators/bob", {
          token: alice.token,
          body: { permission: "read" },
        })
      ).status,
    ).toBe(204);
    const seen = await t.call("GET", "/repos/alice/secret", { token: bob.token });
    expect(seen.json.permissions).toEqual({ admin: false, push: false, pull: true });
    const list = await t.call("GET", "/repos/alice/secret/collaborators", { token: bob.token });
    expect(list.json.map((u: { login: string }) => u.login)).toEqual(["bob"]);
    expect((await t.call("GET", "/repos/alice/secret/collaborators/bob", { token: bob.token })).status).toBe(
      204,
    );
    expect((await t.call("GET", "/repos/alice/secret/collaborators/root", { token: bob.token })).status).toBe(
      404,
    );
    expect(
      (await t.call("PUT", "/repos/alice/secret/collaborators/root", { token: bob.token, body: {} })).status,
    ).toBe(403);
    const perm = await t.call("GET", "/repos/alice/secret/collaborators/bob/permission", {
      token: bob.token,
    });
    expect(perm.json).toMatchObject({ permission: "read", role_name: "read", user: { login: "bob" } });
    expect(
      (await t.call("GET", "/repos/alice/secret/collaborators/alice/permission", { token: bob.token }))
        .status,
    ).toBe(403);
    expect(
      (await t.call("GET", "/repos/alice/secret/collaborators/alice/permission", { token: alice.token })).json
        .permission,
    ).toBe("owner");
    await t.call("PUT", "/repos/alice/secret/collaborators/bob", {
      token: alice.token,
      body: { permission: "admin" },
    });
    expect(
      (
        await t.call("PATCH", "/repos/alice/secret", {
          token: bob.token,
          body: { description: "bob was here" },
        })
      ).status,
    ).toBe(200);
    const del = await t.call("DELETE", "/repos/alice/secret", { token: bob.token });
    expect(del.status).toBe(403);
    expect(del.json.message).toBe("user should be the owner of the repo");
    expect(
      (await t.call("DELETE", "/repos/alice/secret/collaborators/bob", { token: alice.token })).status,
    ).toBe(204);
    expect((await t.call("GET", "/repos/alice/secret", { token: bob.token })).status).toBe(404);
  });

  it("renames a repository on disk and moves usage between public and private", async () => {
    await t.call("POST", "/user/repos", { token: alice.token, body: { name: "movable", auto_init: true } });
    const before = await usage("alice");
    const renamed = await t.call("PATCH", "/repos/alice/movable", {
      token: alice.token,
      body: { name: "moved", private: true },
    });
    expect(renamed.status).toBe(200);
    expect(renamed.json).toMatchObject({ name: "moved", private: true });
    expect(onDisk("alice", "moved")).toBe(true);
    expect(onDisk("alice", "movable")).toBe(false);
    // The old name redirects (Forgejo's repo_redirect), to the owner, and is 404 to anonymous
    // callers, who may not see the now private repository.
    const old = await t.call("GET", "/repos/alice/movable", { token: alice.token });
    expect(old.status).toBe(307);
    expect(old.headers.get("Location")).toBe("/api/v1/repos/alice/moved");
    expect((await t.call("GET", "/repos/alice/movable")).status).toBe(404);
    const after = await usage("alice");
    const size = (await t.services.repositories.findByName(
      await t.services.users.getByName("alice"),
      "moved",
    ))!.gitSize;
    expect(after.reposPublic).toBe(before.reposPublic - size);
    expect(after.reposPrivate).toBe(before.reposPrivate + size);
    expect(
      (await t.call("PATCH", "/repos/alice/moved", { token: alice.token, body: { default_branch: "nope" } }))
        .status,
    ).toBe(422);
  });

  it("deletes a repository with its files and its usage", async () => {
    await t.call("POST", "/user/repos", { token: bob.token, body: { name: "doomed", auto_init: true } });
    expect((await usage("bob")).reposPublic).toBeGreaterThan(0);
    expect((await t.call("DELETE", "/repos/bob/doomed", { token: bob.token })).status).toBe(204);
    expect(onDisk("bob", "doomed")).toBe(false);
    expect((await usage("bob")).reposPublic).toBe(0);
    expect((await t.call("GET", "/repos/bob/doomed", { token: bob.token })).status).toBe(404);
  });

  it("lists repositories by id, with paging headers and Forgejo's order_by values", async () => {
    const mine = await t.call("GET", "/user/repos?limit=2", { token: alice.token });
    expect(mine.status).toBe(200);
    const total = Number(mine.headers.get("X-Total-Count"));
    expect(total).toBeGreaterThanOrEqual(3);
    expect(mine.headers.get("Link")).toContain('rel="next"');
    const all = await t.call("GET", "/user/repos?limit=50", { token: alice.token });
    const ids = all.json.map((r: { id: number }) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => a - b));
    const bySize = await t.call("GET", "/user/repos?order_by=reversesize&limit=50", { token: alice.token });
    const sizes = bySize.json.map((r: { size: number }) => r.size);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    const byName = await t.call("GET", "/user/repos?order_by=name&limit=50", { token: alice.token });
    const names = byName.json.map((r: { name: string }) => r.name);
    expect(names).toEqual([...names].sort());
    expect((await t.call("GET", "/user/repos?order_by=bogus", { token: alice.token })).status).toBe(422);
    const public_ = await t.call("GET", "/users/alice/repos?limit=50");
    expect(public_.json.every((r: { private: boolean }) => !r.private)).toBe(true);
    const search = await t.call("GET", "/repos/search?q=fir&sort=alpha&order=desc");
    expect(search.json).toMatchObject({ ok: true, data: [{ full_name: "alice/first" }] });
    expect((await t.call("GET", "/repos/search?sort=nope")).status).toBe(422);
  });
});
