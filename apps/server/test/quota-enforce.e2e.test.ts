import { createHash, randomBytes } from "node:crypto";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createAdmin,
  createUserWithToken,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

const LFS = { "Content-Type": "application/vnd.git-lfs+json", Accept: "application/vnd.git-lfs+json" };

/**
 * `[quota] ENFORCE = true` against `kiln web`, with the real git and git-lfs clients: each of
 * Forgejo's enforcement points on repositories (create, migrate, transfer and its acceptance, git
 * push, LFS upload) lets a write through while the owner is within quota, then refuses it once a
 * small limit (a rule in a group assigned through the admin API) is exceeded: 413 with Forgejo's
 * body for the API, `remote: Quota exceeded` for git, the LFS error for git-lfs. A refusal
 * stores nothing and changes no usage. What counts is the owner's quota, never the pusher's.
 */
describe.each(E2E_DATABASES)("quota enforcement with [quota] ENFORCE (%s)", (name) => {
  const { env, dispose } = databaseEnv(name, { KILN__QUOTA__ENFORCE: "true" });
  const work = tempWorkPath();
  let server: ServerProcess;
  let admin: string;
  const tokens: Record<string, string> = {};
  const ids: Record<string, number> = {};

  const call = (user: string, method: string, path: string, body?: unknown) =>
    api(server.url, method, path, { token: tokens[user] ?? admin, ...(body !== undefined ? { body } : {}) });
  const usage = async (owner: string) => {
    const res = await api(server.url, "GET", `/admin/users/${owner}/quota`, { token: admin });
    expect(res.status).toBe(200);
    return res.json.used.size;
  };
  const asAdmin = async (method: string, path: string, body?: unknown, status = 201) => {
    const res = await api(server.url, method, path, {
      token: admin,
      ...(body !== undefined ? { body } : {}),
    });
    expect([method, path, res.status, res.json]).toEqual([method, path, status, res.json]);
    return res;
  };
  /** Puts `owner` in a new group whose one rule limits `subjects` to `limit` bytes. */
  const limit = async (owner: string, rule: string, limitBytes: number, subjects: string[]) => {
    await asAdmin("POST", "/admin/quota/groups", {
      name: rule,
      rules: [{ name: rule, limit: limitBytes, subjects }],
    });
    await asAdmin("PUT", `/admin/quota/groups/${rule}/users/${owner}`, undefined, 204);
  };
  const refused = (owner: string) => ({
    message: "quota exceeded",
    url: expect.any(String),
    user_id: ids[owner],
    username: owner,
  });
  const basic = (user: string) => `Basic ${Buffer.from(`${user}:password1`).toString("base64")}`;
  const clone = async (owner: string, repo: string, as = owner) => {
    const dir = scratch();
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, owner, repo, as, "password1"), "c"]);
    return join(dir, "c");
  };
  const commit = async (dir: string, files: Record<string, Buffer | string>) => {
    for (const [file, data] of Object.entries(files)) writeFileSync(join(dir, file), data);
    await gitOk(dir, ["add", "."]);
    await gitOk(dir, ["commit", "-qm", `add ${Object.keys(files).join(", ")}`]);
  };
  const remoteRefs = async (owner: string, repo: string) =>
    gitOk(scratch(), ["ls-remote", cloneUrl(server.url, owner, repo, owner, "password1")]);

  beforeAll(async () => {
    server = await startServer(work, env);
    admin = (await createAdmin(server, work, "root", env)).token;
    for (const user of ["alice", "bob"]) tokens[user] = await createUserWithToken(server, work, env, user);
    expect((await call("alice", "POST", "/orgs", { username: "acme" })).status).toBe(201);
    for (const owner of ["alice", "bob", "acme"]) {
      ids[owner] = (await api(server.url, "GET", `/users/${owner}`, { token: admin })).json.id;
    }
    for (const [owner, repo] of [
      ["alice", "work"],
      ["bob", "gift"],
      ["bob", "shared"],
    ]) {
      const res = await call(owner as string, "POST", "/user/repos", { name: repo, auto_init: true });
      expect(res.status).toBe(201);
    }
    // bob writes to alice's repository and alice to bob's; neither's quota is the other's.
    for (const [owner, repo, collaborator] of [
      ["alice", "work", "bob"],
      ["bob", "shared", "alice"],
    ]) {
      const res = await call(
        owner as string,
        "PUT",
        `/repos/${owner}/${repo}/collaborators/${collaborator}`,
        {
          permission: "write",
        },
      );
      expect(res.status).toBe(204);
    }
    // A transfer of bob's repository to alice, started while alice is within quota.
    const pending = await call("bob", "POST", "/repos/bob/gift/transfer", { new_owner: "alice" });
    expect(pending.status).toBe(201);
    // acme may store no repository at all (a limit of 0 fails even with nothing stored).
    await limit("acme", "acme-none", 0, ["size:repos:all"]);
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGKILL");
      await server.exited;
    }
    await dispose();
  });

  it("refuses creating and migrating a repository for an owner over quota, and nothing else", async () => {
    const before = await usage("acme");
    const org = await call("alice", "POST", "/orgs/acme/repos", { name: "nope", auto_init: true });
    expect([org.status, org.json]).toEqual([413, refused("acme")]);
    expect((await call("alice", "GET", "/repos/acme/nope")).status).toBe(404);
    const migrate = await call("alice", "POST", "/repos/migrate", {
      clone_addr: `${server.url}/alice/work.git`,
      repo_name: "copy",
      repo_owner: "acme",
    });
    expect([migrate.status, migrate.json]).toEqual([413, refused("acme")]);
    expect((await call("alice", "GET", "/repos/acme/copy")).status).toBe(404);
    expect(await usage("acme")).toEqual(before);
    // alice is still within her quota: her own repository is created (and counts against her).
    const mine = await call("alice", "POST", "/user/repos", { name: "side", auto_init: true });
    expect(mine.status).toBe(201);
  });

  it("takes a push and an LFS upload within quota, then refuses both once the limit is exceeded", async () => {
    // alice may store 64 KiB more than she does now, git and LFS together.
    const used = await usage("alice");
    await limit("alice", "alice-small", used.repos.public + used.repos.private + 64 * 1024, ["size:all"]);
    const dir = await clone("alice", "work");
    await gitOk(dir, ["lfs", "install", "--local"]);
    await gitOk(dir, ["lfs", "track", "*.bin"]);
    // 40 KiB of git data and 40 KiB of LFS: pushed while within quota, leaving alice over it.
    await commit(dir, {
      "data.txt": randomBytes(40 * 1024).toString("hex"),
      "big.bin": randomBytes(40 * 1024),
    });
    const first = await git(dir, ["push", "origin", "main"]);
    expect(first.code, first.stderr).toBe(0);
    const over = await usage("alice");
    expect(over.git.LFS).toBe(40 * 1024);
    expect((await call("alice", "GET", "/user/quota/check?subject=size:all")).json).toBe(false);

    // A plain push: refused by the pre-receive hook, with Forgejo's message shown by git.
    const refs = await remoteRefs("alice", "work");
    await commit(dir, { "more.txt": "more\n" });
    const push = await git(dir, ["push", "origin", "main"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("remote: Quota exceeded");
    expect(push.stderr).toContain("pre-receive hook declined");
    // A new branch and a tag are refused too.
    const branch = await git(dir, ["push", "origin", "HEAD:refs/heads/topic", "HEAD:refs/tags/v1"]);
    expect(branch.code).not.toBe(0);
    expect(branch.stderr).toContain("remote: Quota exceeded");
    expect(await remoteRefs("alice", "work")).toBe(refs);
    // bob, within his own quota, cannot push to alice's repository either: the owner's quota counts.
    const asBob = await clone("alice", "work", "bob");
    await commit(asBob, { "bob.txt": "bob\n" });
    const bobPush = await git(asBob, ["push", "origin", "main"]);
    expect(bobPush.stderr).toContain("remote: Quota exceeded");
    expect(await remoteRefs("alice", "work")).toBe(refs);

    // An LFS upload: git-lfs's batch request is refused before any object is sent.
    const lfsFile = randomBytes(1024);
    await commit(dir, { "other.bin": lfsFile });
    const lfsPush = await git(dir, ["push", "origin", "main"]);
    expect(lfsPush.code).not.toBe(0);
    expect(lfsPush.stderr).toContain("quota exceeded");
    // And the upload itself, asked directly.
    const oid = createHash("sha256").update(lfsFile).digest("hex");
    const put = await fetch(`${server.url}/alice/work.git/info/lfs/objects/${oid}/${lfsFile.length}`, {
      method: "PUT",
      headers: { ...LFS, Authorization: basic("alice") },
      body: lfsFile,
    });
    expect([put.status, await put.json()]).toEqual([413, { message: "quota exceeded" }]);
    const batch = await fetch(`${server.url}/alice/work.git/info/lfs/objects/batch`, {
      method: "POST",
      headers: { ...LFS, Authorization: basic("alice") },
      body: JSON.stringify({ operation: "download", objects: [{ oid, size: lfsFile.length }] }),
    });
    expect(
      ((await batch.json()) as { objects: { error?: { code: number } }[] }).objects[0]?.error?.code,
    ).toBe(404);
    expect(await usage("alice")).toEqual(over);
    expect(await remoteRefs("alice", "work")).toBe(refs);

    // Deleting frees space, so it is allowed; alice still pushes to bob's repository (bob's quota).
    const shared = await clone("bob", "shared", "alice");
    await commit(shared, { "alice.txt": "alice\n" });
    const toBob = await git(shared, ["push", "origin", "main", "HEAD:refs/heads/scratch"]);
    expect(toBob.code, toBob.stderr).toBe(0);
  });

  it("lets a ref be deleted by a push while over quota", async () => {
    const dir = await clone("bob", "shared", "bob");
    // bob's own repository, within quota: a branch to delete later.
    expect((await git(dir, ["push", "origin", "HEAD:refs/heads/gone"])).code).toBe(0);
    await limit("bob", "bob-none", 0, ["size:repos:all"]);
    const again = await git(dir, ["push", "origin", "HEAD:refs/heads/again"]);
    expect(again.stderr).toContain("remote: Quota exceeded");
    const deleted = await git(dir, ["push", "origin", ":refs/heads/gone"]);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(await remoteRefs("bob", "shared")).not.toContain("refs/heads/gone");
    expect(await remoteRefs("bob", "shared")).not.toContain("refs/heads/again");
  });

  it("refuses transferring a repository to an owner over quota, at the start and at the acceptance", async () => {
    const before = { alice: await usage("alice"), bob: await usage("bob") };
    // The transfer bob started while alice was within quota: her acceptance is refused now.
    const accept = await call("alice", "POST", "/repos/bob/gift/transfer/accept");
    expect([accept.status, accept.json]).toEqual([413, refused("alice")]);
    expect((await call("bob", "GET", "/repos/bob/gift")).json.owner.login).toBe("bob");
    // A new transfer to alice is refused at once (she is found first: 404 for no one).
    const start = await call("bob", "POST", "/repos/bob/shared/transfer", { new_owner: "alice" });
    expect([start.status, start.json]).toEqual([413, refused("alice")]);
    const missing = await call("bob", "POST", "/repos/bob/shared/transfer", { new_owner: "nobody-here" });
    expect(missing.status).toBe(404);
    // Into acme (never within quota): refused though alice, who may create there, asks.
    const toOrg = await call("alice", "POST", "/repos/alice/side/transfer", { new_owner: "acme" });
    expect([toOrg.status, toOrg.json]).toEqual([413, refused("acme")]);
    expect((await call("alice", "GET", "/repos/alice/side")).status).toBe(200);
    expect({ alice: await usage("alice"), bob: await usage("bob") }).toEqual(before);
  });

  it("refuses alice's own repository and migration once her pushes took her over quota", async () => {
    const before = await usage("alice");
    const create = await call("alice", "POST", "/user/repos", { name: "later", auto_init: true });
    expect([create.status, create.json]).toEqual([413, refused("alice")]);
    const migrate = await call("alice", "POST", "/repos/migrate", {
      clone_addr: `${server.url}/alice/work.git`,
      repo_name: "later-copy",
    });
    expect([migrate.status, migrate.json]).toEqual([413, refused("alice")]);
    for (const repo of ["later", "later-copy"])
      expect((await call("alice", "GET", `/repos/alice/${repo}`)).status).toBe(404);
    expect(await usage("alice")).toEqual(before);
  });
});
