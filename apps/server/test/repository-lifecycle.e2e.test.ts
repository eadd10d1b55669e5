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

/**
 * A repository's whole life, end to end with the real git and git-lfs clients against `kiln web`:
 * create, clone, commit, push, read the commit back, edit through the contents API and pull,
 * branch, fail to delete the default branch, push LFS and watch the quota usage follow the
 * repository through an LFS push, a visibility change and a transfer to an organization.
 */

describe.each(E2E_DATABASES)("a repository's life, driven by git and the API (%s)", (name) => {
  const { env, dispose } = databaseEnv(name);
  const work = tempWorkPath();
  let server: ServerProcess;
  let token: string;
  const dir = scratch("kiln-life-");
  const clone = join(dir, "clone");
  const usage = async (path: string) => (await api(server.url, "GET", path, { token })).json.used.size;

  beforeAll(async () => {
    server = await startServer(work, env);
    const created = await kiln(
      [
        "admin",
        "user",
        "create",
        "-w",
        work,
        "--username",
        "dev",
        "--password",
        "password1",
        "--email",
        "dev@example.com",
      ],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    token = (
      await api(server.url, "POST", "/users/dev/tokens", {
        basic: ["dev", "password1"],
        body: { name: "t", scopes: ["all"] },
      })
    ).json.sha1;
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("creates a repository over the API, clones it, commits and pushes", async () => {
    const repo = await api(server.url, "POST", "/user/repos", {
      token,
      body: { name: "life", auto_init: true, description: "a life" },
    });
    expect(repo.status).toBe(201);
    await gitOk(dir, ["clone", cloneUrl(server.url, "dev", "life", "dev", "password1"), "clone"]);
    writeFileSync(join(clone, "hello.txt"), "hello from git\n");
    await gitOk(clone, ["add", "hello.txt"]);
    await gitOk(clone, ["commit", "-qm", "Add hello"]);
    await gitOk(clone, ["push", "origin", "main"]);
  });

  it("reads the pushed commit through /commits/{ref} and /git/commits/{ref}", async () => {
    const sha = (await gitOk(clone, ["rev-parse", "HEAD"])).trim();
    const byRef = await api(server.url, "GET", "/repos/dev/life/commits/main", { token });
    expect(byRef.status).toBe(200);
    expect(byRef.json).toMatchObject({ sha, commit: { message: "Add hello\n" } });
    const gitCommit = await api(server.url, "GET", "/repos/dev/life/git/commits/main", { token });
    expect(gitCommit.status).toBe(200);
    expect(gitCommit.json.sha).toBe(sha);
    expect((await api(server.url, "GET", `/repos/dev/life/git/commits/${sha}`, { token })).json.sha).toBe(
      sha,
    );
  });

  it("changes a file through the contents API, and git pulls the change", async () => {
    const current = await api(server.url, "GET", "/repos/dev/life/contents/hello.txt", { token });
    expect(Buffer.from(current.json.content, "base64").toString()).toBe("hello from git\n");
    const updated = await api(server.url, "PUT", "/repos/dev/life/contents/hello.txt", {
      token,
      body: {
        content: Buffer.from("hello from the API\n").toString("base64"),
        sha: current.json.sha,
        message: "Edit hello",
      },
    });
    expect(updated.status).toBe(200);
    await gitOk(clone, ["pull", "-q", "origin", "main"]);
    expect(readFileSync(join(clone, "hello.txt"), "utf8")).toBe("hello from the API\n");
    expect((await gitOk(clone, ["log", "-1", "--format=%s"])).trim()).toBe("Edit hello");
  });

  it("creates a branch from another, and refuses to delete the default branch", async () => {
    const branch = await api(server.url, "POST", "/repos/dev/life/branches", {
      token,
      body: { new_branch_name: "feature", old_branch_name: "main" },
    });
    expect(branch.status).toBe(201);
    expect(branch.json.name).toBe("feature");
    await gitOk(clone, ["fetch", "-q", "origin"]);
    expect((await gitOk(clone, ["rev-parse", "origin/feature"])).trim()).toBe(
      (await gitOk(clone, ["rev-parse", "origin/main"])).trim(),
    );
    const refused = await api(server.url, "DELETE", "/repos/dev/life/branches/main", { token });
    expect(refused.status).toBe(403);
    expect((await api(server.url, "GET", "/repos/dev/life/branches/main", { token })).status).toBe(200);
    const pushDelete = await git(clone, ["push", "origin", ":main"]);
    expect(pushDelete.code).not.toBe(0);
  });

  it("counts an LFS object pushed with git-lfs as sizelfs usage of its exact size", async () => {
    const before = await usage("/user/quota");
    await gitOk(clone, ["lfs", "install", "--local"]);
    await gitOk(clone, ["lfs", "track", "*.bin"]);
    const blob = randomBytes(123_456);
    writeFileSync(join(clone, "model.bin"), blob);
    await gitOk(clone, ["add", ".gitattributes", "model.bin"]);
    await gitOk(clone, ["commit", "-qm", "Add model"]);
    await gitOk(clone, ["push", "origin", "main"]);
    const after = await usage("/user/quota");
    expect(after.git.LFS - before.git.LFS).toBe(123_456);
    expect(after.repos.public).toBeGreaterThan(0);
  });

  it("moves the usage from public to private when the repository becomes private", async () => {
    const before = await usage("/user/quota");
    expect(
      (await api(server.url, "PATCH", "/repos/dev/life", { token, body: { private: true } })).status,
    ).toBe(200);
    const after = await usage("/user/quota");
    expect(after.repos.private).toBe(before.repos.public);
    expect(after.repos.public).toBe(0);
    expect(after.git.LFS).toBe(before.git.LFS);
  });

  it("moves the usage to an organization when the repository is transferred to it", async () => {
    expect((await api(server.url, "POST", "/orgs", { token, body: { username: "lab" } })).status).toBe(201);
    const mine = await usage("/user/quota");
    const moved = await api(server.url, "POST", "/repos/dev/life/transfer", {
      token,
      body: { new_owner: "lab" },
    });
    expect(moved.status).toBe(202);
    expect(moved.json.full_name).toBe("lab/life");
    const org = await usage("/orgs/lab/quota");
    expect(org.repos.private).toBe(mine.repos.private);
    expect(org.git.LFS).toBe(mine.git.LFS);
    const left = await usage("/user/quota");
    expect(left.repos.private).toBe(0);
    expect(left.git.LFS).toBe(0);
    await gitOk(clone, [
      "remote",
      "set-url",
      "origin",
      cloneUrl(server.url, "lab", "life", "dev", "password1"),
    ]);
    await gitOk(clone, ["fetch", "-q", "origin"]);
  });
});
