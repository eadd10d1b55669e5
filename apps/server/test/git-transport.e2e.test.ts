import { randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import {
  api,
  databaseEnv,
  E2E_DATABASES,
  kiln,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

describe.each(E2E_DATABASES)("git over HTTP with the real git and git-lfs clients (%s)", (name) => {
  const { env, dispose } = databaseEnv(name, { KILN__MIGRATIONS__ALLOW_LOCALNETWORKS: "true" });
  const work = tempWorkPath();
  let server: ServerProcess;
  const tokens: Record<string, string> = {};

  beforeAll(async () => {
    server = await startServer(work, env);
    for (const user of ["owner", "reader", "stranger"]) {
      const created = await kiln(
        [
          "admin",
          "user",
          "create",
          "-w",
          work,
          "--username",
          user,
          "--password",
          "password1",
          "--email",
          `${user}@example.com`,
          "--must-change-password=false",
        ],
        env,
      );
      expect(created.code, created.stderr).toBe(0);
      const token = await api(server.url, "POST", `/users/${user}/tokens`, {
        basic: [user, "password1"],
        body: { name: "all", scopes: ["all"] },
      });
      tokens[user] = token.json.sha1;
    }
    const readOnly = await api(server.url, "POST", "/users/owner/tokens", {
      basic: ["owner", "password1"],
      body: { name: "ro", scopes: ["read:repository"] },
    });
    tokens.readOnly = readOnly.json.sha1;
    expect(
      (
        await api(server.url, "POST", "/user/repos", {
          token: tokens.owner,
          body: { name: "open", auto_init: true },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api(server.url, "POST", "/user/repos", {
          token: tokens.owner,
          body: { name: "closed", auto_init: true, private: true },
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await api(server.url, "PUT", "/repos/owner/closed/collaborators/reader", {
          token: tokens.owner,
          body: { permission: "read" },
        })
      ).status,
    ).toBe(204);
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("clones a public repository anonymously but refuses an anonymous push", async () => {
    const dir = scratch();
    await gitOk(dir, ["clone", cloneUrl(server.url, "owner", "open"), "c"]);
    expect(readFileSync(join(dir, "c", "README.md"), "utf8")).toContain("# open");
    writeFileSync(join(dir, "c", "x.txt"), "x\n");
    await gitOk(join(dir, "c"), ["add", "."]);
    await gitOk(join(dir, "c"), ["commit", "-qm", "anonymous"]);
    const push = await git(join(dir, "c"), ["push", "origin", "main"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toMatch(/Authentication failed|could not read Username/);
  });

  it("hides a private repository from anonymous and unauthorized users, and lets collaborators read", async () => {
    const dir = scratch();
    expect((await git(dir, ["clone", cloneUrl(server.url, "owner", "closed"), "anon"])).code).not.toBe(0);
    const stranger = await git(dir, [
      "clone",
      cloneUrl(server.url, "owner", "closed", "stranger", "password1"),
      "s",
    ]);
    expect(stranger.code).not.toBe(0);
    expect(stranger.stderr).toContain("not found");
    await gitOk(dir, ["clone", cloneUrl(server.url, "owner", "closed", "reader", "password1"), "r"]);
    writeFileSync(join(dir, "r", "y.txt"), "y\n");
    await gitOk(join(dir, "r"), ["add", "."]);
    await gitOk(join(dir, "r"), ["commit", "-qm", "reader"]);
    const push = await git(join(dir, "r"), ["push", "origin", "main"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("403");
  });

  it("pushes with a password or a token, and the repository's size follows", async () => {
    const before = (await api(server.url, "GET", "/repos/owner/closed", { token: tokens.owner })).json;
    const dir = scratch();
    await gitOk(dir, ["clone", cloneUrl(server.url, "owner", "closed", "owner", tokens.owner), "c"]);
    writeFileSync(join(dir, "c", "data.bin"), randomBytes(200_000));
    await gitOk(join(dir, "c"), ["add", "."]);
    await gitOk(join(dir, "c"), ["commit", "-qm", "two hundred kilobytes"]);
    await gitOk(join(dir, "c"), ["push", "origin", "main"]);
    const after = (await api(server.url, "GET", "/repos/owner/closed", { token: tokens.owner })).json;
    expect(after.size - before.size).toBeGreaterThanOrEqual(190);
    await gitOk(join(dir, "c"), [
      "remote",
      "set-url",
      "origin",
      cloneUrl(server.url, "owner", "closed", "owner", "password1"),
    ]);
    await gitOk(join(dir, "c"), ["commit", "-q", "--allow-empty", "-m", "with the password"]);
    await gitOk(join(dir, "c"), ["push", "origin", "main"]);
  });

  it("needs write:repository on a token to push", async () => {
    const dir = scratch();
    await gitOk(dir, ["clone", cloneUrl(server.url, "owner", "open", "owner", tokens.readOnly), "c"]);
    await gitOk(join(dir, "c"), ["commit", "-q", "--allow-empty", "-m", "read-only token"]);
    const push = await git(join(dir, "c"), ["push", "origin", "main"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("403");
  });

  it("makes the first pushed branch the default of an empty repository", async () => {
    await api(server.url, "POST", "/user/repos", { token: tokens.owner, body: { name: "blank" } });
    const dir = scratch();
    await gitOk(dir, ["init", "-q", "-b", "trunk", "c"]);
    await gitOk(join(dir, "c"), ["commit", "-q", "--allow-empty", "-m", "first"]);
    await gitOk(join(dir, "c"), [
      "push",
      cloneUrl(server.url, "owner", "blank", "owner", "password1"),
      "trunk",
    ]);
    const repo = (await api(server.url, "GET", "/repos/owner/blank", { token: tokens.owner })).json;
    expect(repo).toMatchObject({ empty: false, default_branch: "trunk" });
  });

  it("stores LFS objects pushed by git-lfs, serves them to clones, and counts them in the size", async () => {
    const before = (await api(server.url, "GET", "/repos/owner/open", { token: tokens.owner })).json.size;
    const dir = scratch();
    const url = cloneUrl(server.url, "owner", "open", "owner", "password1");
    await gitOk(dir, ["clone", url, "c"]);
    const c = join(dir, "c");
    await gitOk(c, ["lfs", "install", "--local"]);
    await gitOk(c, ["lfs", "track", "*.psd"]);
    const blob = randomBytes(300_000);
    writeFileSync(join(c, "art.psd"), blob);
    await gitOk(c, ["add", ".gitattributes", "art.psd"]);
    await gitOk(c, ["commit", "-qm", "artwork"]);
    await gitOk(c, ["push", "origin", "main"]);
    const after = (await api(server.url, "GET", "/repos/owner/open", { token: tokens.owner })).json.size;
    expect(after - before).toBeGreaterThanOrEqual(290);
    // A clone without credentials: the filter is set up locally, then git-lfs downloads the object.
    await gitOk(dir, ["clone", cloneUrl(server.url, "owner", "open"), "anon"]);
    const anon = join(dir, "anon");
    expect(readFileSync(join(anon, "art.psd"), "utf8")).toContain("git-lfs.github.com/spec");
    await gitOk(anon, ["lfs", "install", "--local"]);
    await gitOk(anon, ["lfs", "pull"]);
    expect(readFileSync(join(anon, "art.psd")).equals(blob)).toBe(true);
  });

  it("migrates a repository from a git URL the server can reach, with credentials", async () => {
    const res = await api(server.url, "POST", "/repos/migrate", {
      token: tokens.stranger,
      body: {
        clone_addr: `${server.url}/owner/closed.git`,
        auth_username: "owner",
        auth_password: "password1",
        repo_name: "copy",
        service: "git",
      },
    });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    expect(res.json).toMatchObject({
      full_name: "stranger/copy",
      empty: false,
      private: false,
      mirror: false,
    });
    const dir = scratch();
    await gitOk(dir, ["clone", cloneUrl(server.url, "stranger", "copy"), "c"]);
    expect((await gitOk(join(dir, "c"), ["log", "--format=%s"])).split("\n")).toContain(
      "two hundred kilobytes",
    );
    const wrong = await api(server.url, "POST", "/repos/migrate", {
      token: tokens.stranger,
      body: { clone_addr: `${server.url}/owner/closed.git`, repo_name: "nope" },
    });
    expect(wrong.status).toBe(422);
    expect((await api(server.url, "GET", "/repos/stranger/nope", { token: tokens.stranger })).status).toBe(
      404,
    );
  });
});
