import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createAdmin,
  createUser,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

describe.each(E2E_DATABASES)("renames, redirects and blocks with the real git client (%s)", (name) => {
  let server: ServerProcess;
  let dispose: () => Promise<void>;
  let admin: Awaited<ReturnType<typeof createUser>>;
  let owner: Awaited<ReturnType<typeof createUser>>;
  let pest: Awaited<ReturnType<typeof createUser>>;
  beforeAll(async () => {
    const db = databaseEnv(name);
    dispose = db.dispose;
    const work = tempWorkPath();
    server = await startServer(work, db.env);
    admin = await createAdmin(server, work, "root", db.env);
    owner = await createUser(server, work, "gardener", db.env);
    pest = await createUser(server, work, "pest", db.env);
    for (const [repo, isPrivate] of [
      ["roses", false],
      ["seeds", true],
    ] as const) {
      const made = await api(server.url, "POST", "/user/repos", {
        token: owner.token,
        body: { name: repo, auto_init: true, private: isPrivate },
      });
      expect(made.status).toBe(201);
    }
  });
  afterAll(async () => {
    if (server && server.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose?.();
  });

  it("clones, fetches and pushes by the old names after a repository and its owner are renamed", async () => {
    const renamed = await api(server.url, "PATCH", "/repos/gardener/roses", {
      token: owner.token,
      body: { name: "tulips" },
    });
    expect(renamed.status).toBe(200);
    const user = await api(server.url, "POST", "/admin/users/gardener/rename", {
      token: admin.token,
      body: { new_username: "florist" },
    });
    expect(user.status).toBe(204);

    // Old owner and old repository name: git follows the 307 to florist/tulips.
    const dir = scratch("kiln-rename-e2e-");
    const clone = join(dir, "roses");
    await gitOk(dir, ["clone", "-q", `${server.url}/gardener/roses.git`, clone]);
    expect((await gitOk(clone, ["log", "--format=%s"])).trim()).toBe("Initial commit");
    await gitOk(clone, ["fetch", "-q", "origin"]);
    // A push with credentials through the old URL lands in the renamed repository.
    await gitOk(clone, [
      "remote",
      "set-url",
      "origin",
      cloneUrl(server.url, "gardener", "roses", "florist", "password1"),
    ]);
    await gitOk(clone, ["commit", "-q", "--allow-empty", "-m", "pushed by the old name"]);
    await gitOk(clone, ["push", "-q", "origin", "HEAD:main"]);
    const branch = await api(server.url, "GET", "/repos/florist/tulips/branches/main", {
      token: owner.token,
    });
    expect(branch.json.commit.message.trim()).toBe("pushed by the old name");

    // A private repository's old name leads nowhere for anonymous git, and works with credentials.
    const anonymous = await git(dir, ["clone", "-q", `${server.url}/gardener/seeds.git`, join(dir, "anon")]);
    expect(anonymous.code).not.toBe(0);
    const outsider = await git(dir, [
      "clone",
      "-q",
      cloneUrl(server.url, "gardener", "seeds", "pest", "password1"),
      join(dir, "outsider"),
    ]);
    expect(outsider.code).not.toBe(0);
    expect(outsider.stderr).not.toContain("florist");
    await gitOk(dir, [
      "clone",
      "-q",
      cloneUrl(server.url, "gardener", "seeds", "florist", "password1"),
      join(dir, "seeds"),
    ]);

    // The API answers the old names with Forgejo's 307.
    const old = await fetch(`${server.url}/api/v1/repos/gardener/roses`, { redirect: "manual" });
    expect(old.status).toBe(307);
    expect(old.headers.get("Location")).toBe("/api/v1/repos/florist/tulips");
  });

  it("refuses a blocked user starring and commenting", async () => {
    const issue = await api(server.url, "POST", "/repos/florist/tulips/issues", {
      token: owner.token,
      body: { title: "weeds" },
    });
    expect(issue.status).toBe(201);
    expect((await api(server.url, "PUT", "/user/block/pest", { token: owner.token })).status).toBe(204);
    const star = await api(server.url, "PUT", "/user/starred/florist/tulips", { token: pest.token });
    expect(star.status).toBe(403);
    expect(star.json.message).toBe("user is blocked by the poster or repository owner");
    const comment = await api(
      server.url,
      "POST",
      `/repos/florist/tulips/issues/${issue.json.number}/comments`,
      {
        token: pest.token,
        body: { body: "spam" },
      },
    );
    expect(comment.status).toBe(403);
    expect((await api(server.url, "PUT", "/user/unblock/pest", { token: owner.token })).status).toBe(204);
    expect((await api(server.url, "PUT", "/user/starred/florist/tulips", { token: pest.token })).status).toBe(
      204,
    );
  });
});
