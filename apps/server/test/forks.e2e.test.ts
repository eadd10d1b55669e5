import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUser,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

describe.each(E2E_DATABASES)("forks with the real git client (%s)", (name) => {
  let server: ServerProcess;
  let dispose: () => Promise<void>;
  let alice: Awaited<ReturnType<typeof createUser>>;
  let bob: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    const db = databaseEnv(name);
    dispose = db.dispose;
    const work = tempWorkPath();
    server = await startServer(work, db.env);
    alice = await createUser(server, work, "alice", db.env);
    bob = await createUser(server, work, "bob", db.env);
    const made = await api(server.url, "POST", "/user/repos", {
      token: alice.token,
      body: { name: "project", auto_init: true },
    });
    expect(made.status).toBe(201);
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose?.();
  });

  it("forks, clones the fork, syncs it after a push to the parent, and keeps it whole when the parent is deleted", async () => {
    const forked = await api(server.url, "POST", "/repos/alice/project/forks", {
      token: bob.token,
      body: {},
    });
    expect(forked.status).toBe(202);
    expect(forked.json).toMatchObject({
      full_name: "bob/project",
      fork: true,
      parent: { full_name: "alice/project" },
    });

    const dir = scratch("kiln-fork-e2e-");
    const fork = join(dir, "fork");
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "bob", "project", "bob", "password1"), fork]);
    expect(readFileSync(join(fork, "README.md"), "utf8")).toContain("project");

    // A commit pushed to the parent with git.
    const parent = join(dir, "parent");
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "alice", "project", "alice", "password1"), parent]);
    await gitOk(parent, [
      "-c",
      "user.name=Alice",
      "-c",
      "user.email=alice@example.com",
      "commit",
      "-q",
      "--allow-empty",
      "-m",
      "upstream work",
    ]);
    await gitOk(parent, ["push", "-q", "origin", "HEAD:main"]);
    const upstream = (await gitOk(parent, ["rev-parse", "HEAD"])).trim();

    const info = await api(server.url, "GET", "/repos/bob/project/sync_fork", { token: bob.token });
    expect(info.status).toBe(200);
    expect(info.json).toMatchObject({ allowed: true, commits_behind: 1, base_commit: upstream });
    const synced = await api(server.url, "POST", "/repos/bob/project/sync_fork", { token: bob.token });
    expect(synced.status).toBe(204);
    await gitOk(fork, ["pull", "-q", "--ff-only", "origin", "main"]);
    expect((await gitOk(fork, ["rev-parse", "HEAD"])).trim()).toBe(upstream);

    // The parent goes; the fork still clones and reads, its objects its own.
    expect((await api(server.url, "DELETE", "/repos/alice/project", { token: alice.token })).status).toBe(
      204,
    );
    const again = join(dir, "again");
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "bob", "project", "bob", "password1"), again]);
    expect((await gitOk(again, ["rev-parse", "HEAD"])).trim()).toBe(upstream);
    await gitOk(again, ["fsck", "--full", "--no-progress"]);
    const readme = await api(server.url, "GET", "/repos/bob/project/contents/README.md", {
      token: bob.token,
    });
    expect(readme.status).toBe(200);
    const after = await api(server.url, "GET", "/repos/bob/project", { token: bob.token });
    expect(after.json).toMatchObject({ fork: false, parent: null });
  });
});
