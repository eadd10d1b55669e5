import { readdirSync, statSync } from "node:fs";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { b64, createRepo, repoOnDisk, usageOf } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("forks over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  beforeAll(async () => {
    t = await openTestApp(dialect, { repository: { maxCreationLimit: 50 } });
    alice = await t.user({ name: "alice" });
    bob = await t.user({ name: "bob" });
    carol = await t.user({ name: "carol" });
    expect((await t.call("POST", "/orgs", { token: alice.token, body: { username: "acme" } })).status).toBe(
      201,
    );
    expect(
      (
        await t.call("POST", "/orgs", {
          token: alice.token,
          body: { username: "hush", visibility: "private" },
        })
      ).status,
    ).toBe(201);
    await createRepo(t, alice, "base");
    await createRepo(t, alice, "secret", { private: true });
  });
  afterAll(() => t?.close());

  const fork = (path: string, token: string, body: unknown = {}) =>
    t.call("POST", `/repos/${path}/forks`, { token, body });
  const write = (path: string, token: string, file: string, text: string) =>
    t.call("POST", `/repos/${path}/contents/${file}`, {
      token,
      body: { content: b64(text), message: `add ${file}` },
    });

  it("forks a repository (202) with fork, parent and the parent's forks_count, its size counted for the forker", async () => {
    const res = await fork("alice/base", bob.token);
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({
      full_name: "bob/base",
      fork: true,
      private: false,
      parent: { full_name: "alice/base", fork: false },
      owner: { login: "bob" },
      default_branch: "main",
    });
    expect(repoOnDisk(t, "bob", "base")).toBe(true);
    // The fork's object files are hard links to the parent's (shared on disk, owned by both).
    const objects = join(t.settings.repository.root, "bob", "base.git", "objects");
    const files = (readdirSync(objects, { recursive: true }) as string[])
      .map((f) => join(objects, f))
      .filter((f) => statSync(f).isFile() && !f.includes("info"));
    expect(files.length).toBeGreaterThan(0);
    expect(files.every((f) => statSync(f).nlink >= 2)).toBe(true);
    const readme = await t.call("GET", "/repos/bob/base/contents/README.md", { token: bob.token });
    expect(readme.status).toBe(200);
    expect((await t.call("GET", "/repos/alice/base")).json.forks_count).toBe(1);
    const fromApi = await t.call("GET", "/repos/bob/base", { token: carol.token });
    expect(fromApi.json.parent).toMatchObject({ full_name: "alice/base" });
    const row = await t.services.repositories.findByName(await t.services.users.getByName("bob"), "base");
    expect(row?.gitSize).toBeGreaterThan(0);
    expect((await usageOf(t, "bob")).reposPublic).toBe(row?.gitSize);
  });

  it("answers as Forgejo: 409 for a second fork or a taken name, 403 outside the organization, 422 for no organization", async () => {
    const again = await fork("alice/base", bob.token, { name: "other" });
    expect(again.status).toBe(409);
    expect(again.json.message).toContain("already forked");
    expect((await fork("alice/base", alice.token)).status).toBe(409);
    const renamed = await fork("alice/base", alice.token, { name: "base-copy" });
    expect(renamed.status).toBe(202);
    expect(renamed.json).toMatchObject({ full_name: "alice/base-copy", fork: true });
    const outsider = await fork("alice/base", bob.token, { organization: "acme" });
    expect(outsider.status).toBe(403);
    expect(outsider.json.message).toBe("User is no Member of Organisation 'acme'");
    expect((await fork("alice/base", bob.token, { organization: "nowhere" })).status).toBe(422);
    // A private organization bob cannot see is answered like one that does not exist.
    expect((await fork("alice/base", bob.token, { organization: "hush" })).status).toBe(422);
    expect((await fork("alice/base", bob.token, { name: "bad name!" })).status).toBe(422);
    expect((await t.call("POST", "/repos/alice/base/forks", { body: {} })).status).toBe(401);
  });

  it("keeps forks of private repositories private and invisible (404) to outsiders", async () => {
    expect((await fork("alice/secret", bob.token)).status).toBe(404);
    const res = await fork("alice/secret", alice.token, { organization: "acme" });
    expect(res.status).toBe(202);
    expect(res.json).toMatchObject({
      full_name: "acme/secret",
      private: true,
      parent: { full_name: "alice/secret" },
    });
    expect((await t.call("GET", "/repos/acme/secret", { token: carol.token })).status).toBe(404);
    expect((await t.call("GET", "/repos/alice/secret/forks", { token: carol.token })).status).toBe(404);
    expect((await t.call("GET", "/repos/alice/secret/forks")).status).toBe(404);
    // As Forgejo, a fork's visibility follows its parent's: it cannot be made public.
    const edited = await t.call("PATCH", "/repos/acme/secret", {
      token: alice.token,
      body: { private: false },
    });
    expect(edited.status).toBe(200);
    expect(edited.json.private).toBe(true);
    expect((await t.call("GET", "/repos/acme/secret", { token: carol.token })).status).toBe(404);
  });

  it("lets the owner of a public repository's fork make it private and public again", async () => {
    await createRepo(t, alice, "openbase");
    expect((await fork("alice/openbase", bob.token)).status).toBe(202);
    const hidden = await t.call("PATCH", "/repos/bob/openbase", {
      token: bob.token,
      body: { private: true },
    });
    expect(hidden.json.private).toBe(true);
    const shown = await t.call("PATCH", "/repos/bob/openbase", {
      token: bob.token,
      body: { private: false },
    });
    expect(shown.json.private).toBe(false);
  });

  it("lists only the forks the caller may see, with a matching X-Total-Count", async () => {
    // A fork into a private organization: only its members see it.
    expect((await fork("alice/base", alice.token, { organization: "hush" })).status).toBe(202);
    const mine = await t.call("GET", "/repos/alice/base/forks", { token: alice.token });
    expect(mine.status).toBe(200);
    expect(mine.json.map((r: { full_name: string }) => r.full_name).sort()).toEqual([
      "alice/base-copy",
      "bob/base",
      "hush/base",
    ]);
    expect(mine.headers.get("X-Total-Count")).toBe("3");
    for (const token of [carol.token, undefined]) {
      const theirs = await t.call("GET", "/repos/alice/base/forks", token ? { token } : {});
      expect(theirs.json.map((r: { full_name: string }) => r.full_name).sort()).toEqual([
        "alice/base-copy",
        "bob/base",
      ]);
      expect(theirs.headers.get("X-Total-Count")).toBe("2");
    }
    const paged = await t.call("GET", "/repos/alice/base/forks?limit=1&page=2", { token: alice.token });
    expect(paged.json).toHaveLength(1);
    expect((await t.call("GET", "/repos/alice/base")).json.forks_count).toBe(3);
  });

  it("shows a parent the caller may not see as no parent at all", async () => {
    const added = await t.call("PUT", "/repos/alice/secret/collaborators/bob", {
      token: alice.token,
      body: { permission: "read" },
    });
    expect(added.status).toBe(204);
    expect((await fork("alice/secret", bob.token, { name: "peek" })).status).toBe(202);
    await t.call("DELETE", "/repos/alice/secret/collaborators/bob", { token: alice.token });
    const seen = await t.call("GET", "/repos/bob/peek", { token: bob.token });
    expect(seen.status).toBe(200);
    expect(seen.json.fork).toBe(true);
    expect(seen.json.parent ?? null).toBeNull();
    expect(seen.text).not.toContain("alice/secret");
  });

  it("syncs a fork's branch with its parent (sync_fork) and refuses what cannot fast-forward", async () => {
    await createRepo(t, alice, "upstream");
    expect((await fork("alice/upstream", bob.token)).status).toBe(202);
    const level = await t.call("GET", "/repos/bob/upstream/sync_fork", { token: bob.token });
    expect(level.status).toBe(200);
    expect(level.json).toMatchObject({ allowed: false, commits_behind: 0 });
    expect(level.json.base_commit).toBe(level.json.fork_commit);

    expect((await write("alice/upstream", alice.token, "one.txt", "1")).status).toBe(201);
    expect((await write("alice/upstream", alice.token, "two.txt", "2")).status).toBe(201);
    const behind = await t.call("GET", "/repos/bob/upstream/sync_fork/main", { token: bob.token });
    const tip = (await t.call("GET", "/repos/alice/upstream/branches/main")).json.commit.id;
    expect(behind.json).toEqual({
      allowed: true,
      commits_behind: 2,
      base_commit: tip,
      fork_commit: level.json.fork_commit,
    });
    // Only branch names: revision syntax or a refspec is no branch (404), never handed to git.
    for (const bad of ["main~1", "main:main", "-x"]) {
      const res = await t.call("GET", `/repos/bob/upstream/sync_fork/${encodeURIComponent(bad)}`, {
        token: bob.token,
      });
      expect(res.status, bad).toBe(404);
    }
    // Reading needs code read access; syncing needs write access.
    expect((await t.call("POST", "/repos/bob/upstream/sync_fork", { token: carol.token })).status).toBe(403);
    expect((await t.call("POST", "/repos/bob/upstream/sync_fork", {})).status).toBe(401);
    const synced = await t.call("POST", "/repos/bob/upstream/sync_fork", { token: bob.token });
    expect(synced.status).toBe(204);
    expect((await t.call("GET", "/repos/bob/upstream/branches/main")).json.commit.id).toBe(tip);
    expect((await t.call("GET", "/repos/bob/upstream/contents/two.txt")).status).toBe(200);
    expect((await t.call("GET", "/repos/bob/upstream/sync_fork")).json).toMatchObject({ allowed: false });

    // Diverged: the fork has a commit of its own.
    expect((await write("bob/upstream", bob.token, "mine.txt", "b")).status).toBe(201);
    expect((await write("alice/upstream", alice.token, "three.txt", "3")).status).toBe(201);
    const diverged = await t.call("GET", "/repos/bob/upstream/sync_fork", { token: bob.token });
    expect(diverged.json).toMatchObject({ allowed: false, commits_behind: 0 });
    const refused = await t.call("POST", "/repos/bob/upstream/sync_fork/main", { token: bob.token });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toBe("You can't sync this branch");

    expect((await t.call("GET", "/repos/bob/upstream/sync_fork/nope", { token: bob.token })).status).toBe(
      404,
    );
    const notFork = await t.call("GET", "/repos/alice/upstream/sync_fork", { token: alice.token });
    expect(notFork.status).toBe(400);
    expect(notFork.json.message).toBe("The Repo must be a fork");
  });

  it("applies the fork branch's protection to a sync, as Forgejo's push through its hooks", async () => {
    await createRepo(t, alice, "guarded");
    expect((await fork("alice/guarded", bob.token)).status).toBe(202);
    const rule = await t.call("POST", "/repos/bob/guarded/branch_protections", {
      token: bob.token,
      body: { rule_name: "main", enable_push: false },
    });
    expect(rule.status).toBe(201);
    expect((await write("alice/guarded", alice.token, "new.txt", "n")).status).toBe(201);
    expect((await t.call("GET", "/repos/bob/guarded/sync_fork", { token: bob.token })).json.allowed).toBe(
      true,
    );
    const before = (await t.call("GET", "/repos/bob/guarded/branches/main")).json.commit.id;
    const refused = await t.call("POST", "/repos/bob/guarded/sync_fork", { token: bob.token });
    expect(refused.status).toBe(400);
    expect(refused.json.message).toContain("protected");
    expect((await t.call("GET", "/repos/bob/guarded/branches/main")).json.commit.id).toBe(before);
  });

  it("keeps forks_count right when a fork is deleted, and a fork working when its parent is deleted", async () => {
    await createRepo(t, carol, "root");
    await write("carol/root", carol.token, "data.txt", "payload");
    expect((await fork("carol/root", alice.token)).status).toBe(202);
    expect((await fork("carol/root", bob.token)).status).toBe(202);
    expect((await t.call("GET", "/repos/carol/root")).json.forks_count).toBe(2);
    expect((await t.call("DELETE", "/repos/alice/root", { token: alice.token })).status).toBe(204);
    expect((await t.call("GET", "/repos/carol/root")).json.forks_count).toBe(1);

    expect((await t.call("DELETE", "/repos/carol/root", { token: carol.token })).status).toBe(204);
    const orphan = await t.call("GET", "/repos/bob/root", { token: bob.token });
    expect(orphan.status).toBe(200);
    expect(orphan.json).toMatchObject({ fork: false });
    expect(orphan.json.parent ?? null).toBeNull();
    const data = await t.call("GET", "/repos/bob/root/contents/data.txt", { token: bob.token });
    expect(data.status).toBe(200);
    expect(Buffer.from(data.json.content, "base64").toString()).toBe("payload");
  });

  it("makes the fork reference the parent's LFS objects, counted for the forker (Forgejo's CopyLFS)", async () => {
    await createRepo(t, carol, "media");
    const carolRow = await t.services.users.getByName("carol");
    const media = await t.services.repositories.findByName(carolRow, "media");
    await t.services.repositories.addLfsObject(media!, "a".repeat(64), 4096);
    const before = (await usageOf(t, "bob")).lfs;
    expect((await fork("carol/media", bob.token)).status).toBe(202);
    const row = await t.services.repositories.findByName(await t.services.users.getByName("bob"), "media");
    expect(row?.lfsSize).toBe(4096);
    expect((await usageOf(t, "bob")).lfs).toBe(before + 4096);
    expect((await t.services.repositories.lfsObjectsOf(row!, ["a".repeat(64)])).get("a".repeat(64))).toBe(
      4096,
    );
  });

  it("records the fork event for the parent's webhooks, naming the fork", async () => {
    await createRepo(t, alice, "hooked");
    const hook = await t.call("POST", "/repos/alice/hooked/hooks", {
      token: alice.token,
      body: {
        type: "forgejo",
        config: { url: "http://127.0.0.1:9/hook", content_type: "json" },
        events: ["fork"],
        active: true,
      },
    });
    expect(hook.status).toBe(201);
    expect((await fork("alice/hooked", carol.token)).status).toBe(202);
    const tasks = await t.services.ctx.db
      .selectFrom("hook_task" as never)
      .selectAll()
      .where("hook_id" as never, "=", hook.json.id as never)
      .execute();
    expect(tasks).toHaveLength(1);
    const task = tasks[0] as { eventType: string; payload: string };
    expect(task.eventType).toBe("fork");
    const payload = JSON.parse(task.payload);
    expect(payload.forkee.full_name).toBe("alice/hooked");
    expect(payload.repo.full_name).toBe("carol/hooked");
  });
});

describe.each(DIALECTS)("forks under [quota] ENFORCE on %s", (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await openTestApp(dialect, { quota: { enabled: true, enforce: true, defaultTotal: 50 } });
  });
  afterAll(() => t?.close());

  it("refuses a fork for an owner over quota (413) and creates nothing", async () => {
    const alice = await t.user({ name: "alice" });
    const bob = await t.user({ name: "bob" });
    // Alice's repository puts her over quota, but the fork is bob's: he has used nothing yet.
    await createRepo(t, alice, "big");
    const first = await t.call("POST", "/repos/alice/big/forks", { token: bob.token, body: {} });
    expect(first.status).toBe(202);
    const second = await t.call("POST", "/repos/alice/big/forks", {
      token: alice.token,
      body: { name: "again" },
    });
    expect(second.status).toBe(413);
    expect(repoOnDisk(t, "alice", "again")).toBe(false);
  });
});
