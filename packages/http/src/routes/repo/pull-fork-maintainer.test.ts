import { execFile, execFileSync } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { listen, openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

function run(args: readonly string[], cwd: string): Promise<{ code: number; stderr: string }> {
  return new Promise((resolve) => {
    const env = {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "Eve",
      GIT_AUTHOR_EMAIL: "eve@example.com",
      GIT_COMMITTER_NAME: "Eve",
      GIT_COMMITTER_EMAIL: "eve@example.com",
    };
    execFile("git", [...args], { cwd, env }, (error, _stdout, stderr) =>
      resolve({ code: error ? 1 : 0, stderr }),
    );
  });
}

/**
 * Maintainers' edits are granted by whoever writes to the head: a user who opens a pull request
 * from someone else's branch into their own fork (whose default allows maintainers' edits) gains
 * no push access to that branch, through git or through "update branch".
 */
describe.each(DIALECTS)("maintainers' edits granted by the head's writer only on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let eve: TestUser;
  let server: { url: string; close(): Promise<void> };
  let upstream = "";

  beforeAll(async () => {
    t = await openTestApp(dialect);
    server = await listen(t.app);
    alice = await t.user({ name: "alice" });
    eve = await t.user({ name: "eve" });
    const created = await t.call("POST", "/user/repos", {
      token: alice.token,
      body: { name: "project", auto_init: true },
    });
    expect(created.status).toBe(201);
    expect((await t.call("POST", "/repos/alice/project/forks", { token: eve.token, body: {} })).status).toBe(
      202,
    );
    const edited = await t.call("PATCH", "/repos/eve/project", {
      token: eve.token,
      body: { default_allow_maintainer_edit: true },
    });
    expect(edited.json.default_allow_maintainer_edit).toBe(true);
    const user = await t.services.users.getByName("alice");
    const repo = await t.services.repositories.findByName(user, "project");
    if (!repo) throw new Error("no alice/project");
    upstream = (await t.services.repositories.git(repo)).gitdir;
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it("does not let the poster of a pull request from another's branch push to that branch", async () => {
    const tip = await commitWithGit(upstream, "work", { "work.txt": "alice\n" }, "Alice's work");
    const opened = await t.call("POST", "/repos/eve/project/pulls", {
      token: eve.token,
      body: { head: "alice:work", base: "main", title: "Take alice's work" },
    });
    expect(opened.status).toBe(201);
    expect(opened.json.allow_maintainer_edit).toBe(false);

    const work = await mkdtemp(join(tmpdir(), "kiln-maintainer-"));
    try {
      const url = new URL(`${server.url}/alice/project.git`);
      url.username = eve.name;
      url.password = eve.token;
      expect((await run(["clone", "-q", "-b", "work", url.toString(), "clone"], work)).code).toBe(0);
      const clone = join(work, "clone");
      await writeFile(join(clone, "evil.txt"), "eve\n");
      await run(["add", "evil.txt"], clone);
      await run(["commit", "-qm", "Not alice's"], clone);
      const pushed = await run(["push", "-q", "origin", "work"], clone);
      expect(pushed.code).not.toBe(0);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    expect(
      execFileSync("git", ["--git-dir", upstream, "rev-parse", "work"], { encoding: "utf8" }).trim(),
    ).toBe(tip);
    // Nor may the poster turn it on: the head is not theirs to write.
    const allow = await t.call("PATCH", `/repos/eve/project/pulls/${opened.json.number}`, {
      token: eve.token,
      body: { allow_maintainer_edit: true },
    });
    expect(allow.status).toBe(403);
  });

  it("keeps the base's default for a poster who writes to the head", async () => {
    await commitWithGit(upstream, "offer", { "offer.txt": "alice\n" }, "Alice offers");
    const opened = await t.call("POST", "/repos/eve/project/pulls", {
      token: alice.token,
      body: { head: "alice:offer", base: "main", title: "Alice offers her work" },
    });
    expect(opened.status).toBe(201);
    expect(opened.json.allow_maintainer_edit).toBe(true);
  });
});
