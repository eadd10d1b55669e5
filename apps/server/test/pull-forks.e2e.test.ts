import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUser,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

/**
 * A pull request from a fork with the real git client against `kiln web`: push to the fork, open
 * the pull request (`head: "bob:feature"`), follow later pushes in `refs/pull/N/head` of the base,
 * let a maintainer push to the fork's branch once the poster allows it, and merge.
 */
describe.each(E2E_DATABASES)("pull requests from forks with git (%s)", (database) => {
  const { env, dispose } = databaseEnv(database);
  const work = tempWorkPath();
  const dir = scratch("kiln-pull-forks-");
  const forkClone = join(dir, "fork");
  let server: ServerProcess;
  let alice: Awaited<ReturnType<typeof createUser>>;
  let bob: Awaited<ReturnType<typeof createUser>>;
  const commit = async (clone: string, file: string, message: string) => {
    writeFileSync(join(clone, file), `${message}\n`);
    await gitOk(clone, ["add", file]);
    await gitOk(clone, ["commit", "-qm", message]);
    return (await gitOk(clone, ["rev-parse", "HEAD"])).trim();
  };
  const pullHead = async (clone: string) =>
    (await gitOk(clone, ["ls-remote", "origin", "refs/pull/1/head"])).split("\t")[0];

  beforeAll(async () => {
    server = await startServer(work, env);
    alice = await createUser(server, work, "alice", env);
    bob = await createUser(server, work, "bob", env);
    expect(
      (
        await api(server.url, "POST", "/user/repos", {
          token: alice.token,
          body: { name: "project", auto_init: true },
        })
      ).status,
    ).toBe(201);
    expect(
      (await api(server.url, "POST", "/repos/alice/project/forks", { token: bob.token, body: {} })).status,
    ).toBe(202);
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "bob", "project", "bob", bob.token), forkClone]);
    await gitOk(forkClone, ["checkout", "-qb", "feature"]);
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("opens a pull request from a branch pushed to the fork, its head fetchable from the base", async () => {
    const sha = await commit(forkClone, "feature.txt", "Start the feature");
    await gitOk(forkClone, ["push", "-q", "origin", "feature"]);
    const created = await api(server.url, "POST", "/repos/alice/project/pulls", {
      token: bob.token,
      body: { head: "bob:feature", base: "main", title: "A feature from my fork" },
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      number: 1,
      head: { ref: "feature", sha, repo: { full_name: "bob/project" } },
      base: { ref: "main", repo: { full_name: "alice/project" } },
      mergeable: true,
    });
    const base = join(dir, "base");
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "alice", "project", "alice", alice.token), base]);
    expect(await pullHead(base)).toBe(sha);
    await gitOk(base, ["fetch", "-q", "origin", "refs/pull/1/head"]);
    expect((await gitOk(base, ["rev-parse", "FETCH_HEAD"])).trim()).toBe(sha);
  });

  it("moves refs/pull/1/head of the base when the fork's branch is pushed", async () => {
    const sha = await commit(forkClone, "feature.txt", "Grow the feature");
    await gitOk(forkClone, ["push", "-q", "origin", "feature"]);
    const json = (await api(server.url, "GET", "/repos/alice/project/pulls/1", { token: alice.token })).json;
    expect(json.head.sha).toBe(sha);
    expect(await pullHead(join(dir, "base"))).toBe(sha);
  });

  it("lets the base's maintainer push to the fork's head branch only once the poster allows edits", async () => {
    const maintainer = join(dir, "maintainer");
    await gitOk(dir, [
      "clone",
      "-q",
      cloneUrl(server.url, "bob", "project", "alice", alice.token),
      maintainer,
    ]);
    await gitOk(maintainer, ["checkout", "-q", "feature"]);
    await commit(maintainer, "review.txt", "Apply the review");
    const refused = await git(maintainer, ["push", "-q", "origin", "feature"]);
    expect(refused.code).not.toBe(0);
    const allowed = await api(server.url, "PATCH", "/repos/alice/project/pulls/1", {
      token: bob.token,
      body: { allow_maintainer_edit: true },
    });
    expect(allowed.json.allow_maintainer_edit).toBe(true);
    await gitOk(maintainer, ["push", "-q", "origin", "feature"]);
    const sha = (await gitOk(maintainer, ["rev-parse", "HEAD"])).trim();
    expect((await gitOk(forkClone, ["ls-remote", "origin", "refs/heads/feature"])).split("\t")[0]).toBe(sha);
    // Only that branch: the fork's main stays the fork owner's.
    const other = await git(maintainer, ["push", "origin", "feature:main"]);
    expect(other.code).not.toBe(0);
    expect(other.stderr).toContain("User permission denied for writing.");
    const json = (await api(server.url, "GET", "/repos/alice/project/pulls/1", { token: alice.token })).json;
    expect(json.head.sha).toBe(sha);
  });

  it("merges the fork's pull request into the base, which a clone then fetches", async () => {
    const head = (await api(server.url, "GET", "/repos/alice/project/pulls/1", { token: alice.token })).json
      .head.sha as string;
    const merged = await api(server.url, "POST", "/repos/alice/project/pulls/1/merge", {
      token: alice.token,
      body: { Do: "merge" },
    });
    expect(merged.status).toBe(200);
    const base = join(dir, "base");
    await gitOk(base, ["pull", "-q", "origin", "main"]);
    expect((await gitOk(base, ["log", "-1", "--format=%s|%P"])).trim()).toMatch(
      new RegExp(
        `^Merge pull request 'A feature from my fork' \\(#1\\) from bob/project:feature into main\\|[0-9a-f]{40} ${head}$`,
      ),
    );
    expect(await pullHead(base)).toBe(head);
    const json = (await api(server.url, "GET", "/repos/alice/project/pulls/1", { token: bob.token })).json;
    expect(json).toMatchObject({ merged: true, state: "closed" });
  });
});
