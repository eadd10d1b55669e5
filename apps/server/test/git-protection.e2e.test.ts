import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import { api, kiln, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

/**
 * Branch protection end to end: rules made through the API, pushes with the real git client
 * against `kiln web`, refusals shown by git as `remote: …` lines. One database suffices: the rules'
 * storage is tested on both in the HTTP tests.
 */
describe("branch protection enforced on git pushes", () => {
  const work = tempWorkPath();
  let server: ServerProcess;
  const tokens: Record<string, string> = {};
  let dir: string;

  const clone = async (user: string, as: string) => {
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "owner", "guarded", user, tokens[user]), as]);
    return join(dir, as);
  };
  const commit = async (repo: string, file: string, content: string, message: string) => {
    writeFileSync(join(repo, file), content);
    await gitOk(repo, ["add", file]);
    await gitOk(repo, ["commit", "-qm", message]);
  };
  const head = async (branch = "main") =>
    (await api(server.url, "GET", `/repos/owner/guarded/branches/${branch}`, { token: tokens.owner })).json
      .commit.id as string;

  beforeAll(async () => {
    server = await startServer(work);
    for (const user of ["owner", "writer"]) {
      const created = await kiln([
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
      ]);
      expect(created.code, created.stderr).toBe(0);
      const token = await api(server.url, "POST", `/users/${user}/tokens`, {
        basic: [user, "password1"],
        body: { name: "all", scopes: ["all"] },
      });
      tokens[user] = token.json.sha1;
    }
    const call = (method: string, path: string, body: unknown) =>
      api(server.url, method, path, { token: tokens.owner, body });
    expect((await call("POST", "/user/repos", { name: "guarded", auto_init: true })).status).toBe(201);
    expect(
      (await call("PUT", "/repos/owner/guarded/collaborators/writer", { permission: "write" })).status,
    ).toBe(204);
    const rule = await call("POST", "/repos/owner/guarded/branch_protections", {
      rule_name: "main",
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: ["owner"],
      protected_file_patterns: "*.lock",
    });
    expect(rule.status).toBe(201);
    dir = scratch();
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
  });

  it("lets a whitelisted pusher push to the protected branch", async () => {
    const repo = await clone("owner", "owner");
    await commit(repo, "notes.txt", "allowed\n", "allowed change");
    await gitOk(repo, ["push", "-q", "origin", "main"]);
    expect(await head()).toBe((await gitOk(repo, ["rev-parse", "HEAD"])).trim());
  });

  it("refuses a change to a protected file, even from a whitelisted pusher", async () => {
    const before = await head();
    const repo = await clone("owner", "owner-lock");
    await commit(repo, "deps.lock", "locked\n", "touch the lock file");
    const push = await git(repo, ["push", "origin", "main"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("remote: branch main is protected from changing file deps.lock");
    expect(push.stderr).toContain("[remote rejected] main -> main (pre-receive hook declined)");
    expect(await head()).toBe(before);
  });

  it("refuses a force push", async () => {
    const before = await head();
    const repo = await clone("owner", "owner-force");
    await gitOk(repo, ["reset", "-q", "--hard", "HEAD~1"]);
    await commit(repo, "other.txt", "rewritten\n", "rewrite history");
    const push = await git(repo, ["push", "--force", "origin", "main"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("remote: branch main is protected from force push");
    expect(await head()).toBe(before);
  });

  it("refuses a pusher the whitelist leaves out, who may still push other branches", async () => {
    const before = await head();
    const repo = await clone("writer", "writer");
    await commit(repo, "writer.txt", "from the writer\n", "writer's change");
    const push = await git(repo, ["push", "origin", "main"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("remote: Not allowed to push to protected branch main");
    expect(await head()).toBe(before);
    await gitOk(repo, ["push", "-q", "origin", "main:topic"]);
    expect(await head("topic")).toBe((await gitOk(repo, ["rev-parse", "HEAD"])).trim());
  });

  it("refuses deleting a protected branch by push, and over the API", async () => {
    const protect = await api(server.url, "POST", "/repos/owner/guarded/branch_protections", {
      token: tokens.owner,
      body: { rule_name: "topic", enable_push: true },
    });
    expect(protect.status).toBe(201);
    const repo = join(dir, "writer");
    const push = await git(repo, ["push", "origin", ":topic"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("remote: branch topic is protected from deletion");
    const viaApi = await api(server.url, "DELETE", "/repos/owner/guarded/branches/topic", {
      token: tokens.writer,
    });
    expect(viaApi.status).toBe(403);
    const def = await git(repo, ["push", "origin", ":main"]);
    expect(def.code).not.toBe(0);
    expect(def.stderr).toContain("remote: branch main is the default branch and cannot be deleted");
  });
});
