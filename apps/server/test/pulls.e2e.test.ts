import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUserWithToken,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

/**
 * Pull requests with the real git client against `kiln web`: a pull request follows pushes to its
 * head and its base made over git, and its merge is what a clone then fetches.
 */
describe.each(E2E_DATABASES)("pull requests with git clients (%s)", (database) => {
  const { env, dispose } = databaseEnv(database);
  const work = tempWorkPath();
  const dir = scratch("kiln-pulls-");
  const clone = join(dir, "clone");
  let server: ServerProcess;
  let token = "";
  const pull = (path = "") => api(server.url, "GET", `/repos/alice/project/pulls/1${path}`, { token });
  const commit = async (file: string, content: string, message: string) => {
    writeFileSync(join(clone, file), content);
    await gitOk(clone, ["add", file]);
    await gitOk(clone, ["commit", "-qm", message]);
    return (await gitOk(clone, ["rev-parse", "HEAD"])).trim();
  };

  beforeAll(async () => {
    server = await startServer(work, env);
    token = await createUserWithToken(server, work, env, "alice");
    const repo = await api(server.url, "POST", "/user/repos", {
      token,
      body: { name: "project", auto_init: true },
    });
    expect(repo.status).toBe(201);
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "alice", "project", "alice", token), clone]);
    await gitOk(clone, ["checkout", "-qb", "feature"]);
    await commit("feature.txt", "one\n", "Start the feature");
    await gitOk(clone, ["push", "-q", "origin", "feature"]);
    const created = await api(server.url, "POST", "/repos/alice/project/pulls", {
      token,
      body: { head: "feature", base: "main", title: "The feature" },
    });
    expect(created.status).toBe(201);
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("follows a push to the head: new head, refs/pull/1/head, a pull_push entry by the pusher", async () => {
    const head = await commit("feature.txt", "one\ntwo\n", "Grow the feature");
    await gitOk(clone, ["push", "-q", "origin", "feature"]);
    const json = (await pull()).json;
    expect(json).toMatchObject({ head: { sha: head }, mergeable: true });
    const refs = await gitOk(clone, ["ls-remote", "origin", "refs/pull/1/head"]);
    expect(refs.split("\t")[0]).toBe(head);
    const timeline = (await api(server.url, "GET", "/repos/alice/project/issues/1/timeline", { token })).json;
    const pushes = timeline.filter((e: { type: string }) => e.type === "pull_push");
    expect(pushes.at(-1).user.login).toBe("alice");
    expect(JSON.parse(pushes.at(-1).body).commit_ids).toEqual([head]);
  });

  it("records a push once, credited to the pusher, however many readers race it", async () => {
    const head = await commit("feature.txt", "one\ntwo\n2b\n", "Race the readers");
    let reading = true;
    const readers = Array.from({ length: 6 }, async () => {
      while (reading) await pull();
    });
    await gitOk(clone, ["push", "-q", "origin", "feature"]);
    await new Promise((resolve) => setTimeout(resolve, 300));
    reading = false;
    await Promise.all(readers);
    expect((await pull()).json.head.sha).toBe(head);
    const timeline = (await api(server.url, "GET", "/repos/alice/project/issues/1/timeline", { token })).json;
    const entries = timeline.filter(
      (e: { type: string; body: string }) => e.type === "pull_push" && e.body.includes(head),
    );
    expect(entries).toHaveLength(1);
    expect(entries[0].user.login).toBe("alice");
  });

  it("turns unmergeable when a push to the base conflicts, naming the file, and merges once resolved", async () => {
    await gitOk(clone, ["checkout", "-q", "main"]);
    await commit("feature.txt", "conflicting\n", "Conflict on main");
    await gitOk(clone, ["push", "-q", "origin", "main"]);
    expect((await pull()).json).toMatchObject({ mergeable: false });
    const refused = await api(server.url, "POST", "/repos/alice/project/pulls/1/merge", {
      token,
      body: { Do: "merge" },
    });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe("there are merge conflicts [files: feature.txt]");

    await gitOk(clone, ["checkout", "-q", "feature"]);
    await gitOk(clone, ["merge", "-q", "main", "-X", "ours", "-m", "Resolve"]);
    await gitOk(clone, ["push", "-q", "origin", "feature"]);
    expect((await pull()).json).toMatchObject({ mergeable: true });
    const merged = await api(server.url, "POST", "/repos/alice/project/pulls/1/merge", {
      token,
      body: { Do: "squash", merge_title_field: "The feature, squashed" },
    });
    expect(merged.status).toBe(200);
    await gitOk(clone, ["fetch", "-q", "origin"]);
    expect((await gitOk(clone, ["log", "-1", "--format=%s", "origin/main"])).trim()).toBe(
      "The feature, squashed",
    );
    expect((await gitOk(clone, ["show", "origin/main:feature.txt"])).trim()).toBe("one\ntwo\n2b");
    const diff = await fetch(`${server.url}/api/v1/repos/alice/project/pulls/1.diff`, {
      headers: { Authorization: `token ${token}` },
    });
    expect(diff.status).toBe(200);
    expect(await diff.text()).toContain("+two");
  });
});
