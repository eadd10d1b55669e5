import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import { api, createUser, type ServerProcess, startServer, tempWorkPath } from "./kiln-process.js";

/**
 * Tag protection and branch renames end to end, with the real git client against `kiln web`: a
 * protected tag cannot be created, moved or deleted by a writer the rule does not allow, and can by
 * one it allows; a branch renamed through the API is what `git ls-remote` shows. One database
 * suffices: the rules' storage is tested on both in the HTTP tests.
 */
describe("tag protection and branch renames seen by git", () => {
  const work = tempWorkPath();
  let server: ServerProcess;
  const tokens: Record<string, string> = {};
  let dir: string;

  const clone = async (user: string, as: string) => {
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "owner", "tagged", user, tokens[user]), as]);
    const repo = join(dir, as);
    await gitOk(repo, ["config", "user.name", user]);
    await gitOk(repo, ["config", "user.email", `${user}@example.com`]);
    return repo;
  };
  const remoteRefs = async (repo: string) =>
    (await gitOk(repo, ["ls-remote", "origin"]))
      .trim()
      .split("\n")
      .map((line) => line.split("\t")[1]);

  beforeAll(async () => {
    server = await startServer(work);
    for (const user of ["owner", "writer", "releaser"])
      tokens[user] = (await createUser(server, work, user)).token;
    const call = (method: string, path: string, body?: unknown) =>
      api(server.url, method, path, { token: tokens.owner, ...(body !== undefined ? { body } : {}) });
    expect((await call("POST", "/user/repos", { name: "tagged", auto_init: true })).status).toBe(201);
    for (const user of ["writer", "releaser"]) {
      expect(
        (await call("PUT", `/repos/owner/tagged/collaborators/${user}`, { permission: "write" })).status,
      ).toBe(204);
    }
    const rule = await call("POST", "/repos/owner/tagged/tag_protections", {
      name_pattern: "v*",
      whitelist_usernames: ["releaser"],
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

  it("refuses a protected tag pushed by a writer the rule does not allow", async () => {
    const repo = await clone("writer", "writer");
    await gitOk(repo, ["tag", "v1.0"]);
    const push = await git(repo, ["push", "origin", "v1.0"]);
    expect(push.code).not.toBe(0);
    expect(push.stderr).toContain("remote: Tag v1.0 is protected");
    expect(push.stderr).toContain("[remote rejected] v1.0 -> v1.0 (pre-receive hook declined)");
    expect(await remoteRefs(repo)).not.toContain("refs/tags/v1.0");
    await gitOk(repo, ["tag", "nightly"]);
    await gitOk(repo, ["push", "-q", "origin", "nightly"]);
    expect(await remoteRefs(repo)).toContain("refs/tags/nightly");
  });

  it("lets the allowed user create and delete it, and refuses the writer's delete and move", async () => {
    const repo = await clone("releaser", "releaser");
    await gitOk(repo, ["tag", "-a", "v1.0", "-m", "one"]);
    await gitOk(repo, ["push", "-q", "origin", "v1.0"]);
    expect(await remoteRefs(repo)).toContain("refs/tags/v1.0");

    const writer = join(dir, "writer");
    await gitOk(writer, ["fetch", "-q", "--tags", "--force", "origin"]);
    const del = await git(writer, ["push", "origin", ":refs/tags/v1.0"]);
    expect(del.code).not.toBe(0);
    expect(del.stderr).toContain("remote: Tag v1.0 is protected");
    writeFileSync(join(writer, "more.txt"), "more\n");
    await gitOk(writer, ["add", "more.txt"]);
    await gitOk(writer, ["commit", "-qm", "more"]);
    await gitOk(writer, ["tag", "-f", "v1.0"]);
    const move = await git(writer, ["push", "--force", "origin", "v1.0"]);
    expect(move.code).not.toBe(0);
    expect(move.stderr).toContain("remote: Tag v1.0 is protected");
    expect(await remoteRefs(writer)).toContain("refs/tags/v1.0");

    await gitOk(repo, ["push", "-q", "origin", ":refs/tags/v1.0"]);
    expect(await remoteRefs(repo)).not.toContain("refs/tags/v1.0");
  });

  it("shows a branch renamed through the API to git ls-remote", async () => {
    const repo = join(dir, "releaser");
    await gitOk(repo, ["push", "-q", "origin", "HEAD:refs/heads/feature"]);
    const res = await api(server.url, "PATCH", "/repos/owner/tagged/branches/feature", {
      token: tokens.writer,
      body: { name: "feature-renamed" },
    });
    expect(res.status).toBe(204);
    const refs = await remoteRefs(repo);
    expect(refs).toContain("refs/heads/feature-renamed");
    expect(refs).not.toContain("refs/heads/feature");

    const main = await api(server.url, "PATCH", "/repos/owner/tagged/branches/main", {
      token: tokens.owner,
      body: { name: "trunk" },
    });
    expect(main.status).toBe(204);
    const after = await gitOk(repo, ["ls-remote", "--symref", "origin", "HEAD"]);
    expect(after).toContain("ref: refs/heads/trunk\tHEAD");
    expect(await remoteRefs(repo)).not.toContain("refs/heads/main");
  });
});
