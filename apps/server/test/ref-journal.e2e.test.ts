import { readdirSync, statSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUserWithToken,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

/** Each test starts the server two or three times; on a loaded 2-core machine a start takes a while. */
const SLOW = 240_000;

/** The bare repository `name.git` somewhere under the work path. */
function findGitdir(root: string, name: string): string | undefined {
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    const path = join(root, entry.name);
    if (!entry.isDirectory()) continue;
    if (entry.name === name) return path;
    const found = findGitdir(path, name);
    if (found) return found;
  }
  return undefined;
}

/**
 * The ref journal makes a crash between git and the database harmless: `kiln web` killed (SIGKILL,
 * through the test-only `KILN_TEST_CRASH_AT`) after git moved a ref and before the database
 * recorded it — a merge, a push with the real git client,
 * a file written through the API, a branch deleted or renamed through the API, a head branch
 * deleted after its merge, a wiki page written through the API, a fork synced with its parent —
 * finishes the operation when it starts again: the pull request is merged, the rows follow a
 * renamed branch, and each operation's feed entry (or hook delivery) exists exactly once.
 */
// One database kind: each case costs two or three server starts, and the journal's queries run on
// both databases in the storage suite (ref-updates.test.ts). PGlite is the one that dies with the
// server, so its recovery is the one a kill -9 tests.
describe.each(E2E_DATABASES.slice(0, 1))("ref moves interrupted by a crash (%s)", (database) => {
  // Local networks allowed: a pull mirror below mirrors a repository of this very server.
  const { env, dispose } = databaseEnv(database, {
    NODE_ENV: "test",
    KILN__MIGRATIONS__ALLOW_LOCALNETWORKS: "true",
  });
  const work = tempWorkPath();
  const dir = scratch("kiln-journal-");
  const clone = join(dir, "clone");
  let server: ServerProcess;
  let token = "";
  const commit = async (file: string, content: string, message: string) => {
    writeFileSync(join(clone, file), content);
    await gitOk(clone, ["add", file]);
    await gitOk(clone, ["commit", "-qm", message]);
    return (await gitOk(clone, ["rev-parse", "HEAD"])).trim();
  };
  const remoteTip = async (branch: string) =>
    (await gitOk(clone, ["ls-remote", "origin", `refs/heads/${branch}`])).split("\t")[0];
  const feed = async () =>
    (await api(server.url, "GET", "/repos/alice/project/activities/feeds?limit=50", { token })).json as {
      op_type: string;
      content: string;
      ref_name: string;
    }[];
  /** Restarts the server, armed to kill itself at `crashAt` when given. */
  const restart = async (crashAt?: string) => {
    if (server.process.exitCode === null && server.process.signalCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    server = await startServer(work, crashAt ? { ...env, KILN_TEST_CRASH_AT: crashAt } : env);
    // Each start listens on a new port.
    await gitOk(clone, [
      "remote",
      "set-url",
      "origin",
      cloneUrl(server.url, "alice", "project", "alice", token),
    ]);
  };
  /** Runs `action` against a server armed to crash, and waits until it died of SIGKILL. */
  const crashing = async (point: string, action: () => Promise<unknown>, then = restart) => {
    await restart(point);
    await action().catch(() => undefined);
    await server.exited;
    expect(server.process.signalCode).toBe("SIGKILL");
    await then();
  };
  const openPull = async (branch: string, title: string) => {
    await gitOk(clone, ["checkout", "-qb", branch, "main"]);
    await commit(`${branch}.txt`, `${branch}\n`, title);
    await gitOk(clone, ["push", "-q", "origin", branch]);
    await gitOk(clone, ["checkout", "-q", "main"]);
    const created = await api(server.url, "POST", "/repos/alice/project/pulls", {
      token,
      body: { head: branch, base: "main", title },
    });
    expect(created.status).toBe(201);
    return created.json.number as number;
  };
  const merge = (index: number) =>
    api(server.url, "POST", `/repos/alice/project/pulls/${index}/merge`, { token, body: { Do: "merge" } });

  beforeAll(async () => {
    server = await startServer(work, env);
    token = await createUserWithToken(server, work, env, "alice");
    const repo = await api(server.url, "POST", "/user/repos", {
      token,
      body: { name: "project", auto_init: true, default_branch: "main" },
    });
    expect(repo.status).toBe(201);
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "alice", "project", "alice", token), clone]);
  });
  afterAll(async () => {
    if (server?.process.exitCode === null && server.process.signalCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  }, SLOW);

  it(
    "a merge killed after the base branch moved is merged at start-up, its events once",
    async () => {
      const index = await openPull("feature", "The feature");
      await crashing("merge-after-move", () => merge(index));
      const tip = await remoteTip("main");
      const pull = (await api(server.url, "GET", `/repos/alice/project/pulls/${index}`, { token })).json;
      expect(pull).toMatchObject({ merged: true, state: "closed", merge_commit_sha: tip });
      const entries = await feed();
      expect(entries.filter((e) => e.op_type === "merge_pull_request")).toHaveLength(1);
      const pushes = entries.filter((e) => e.op_type === "commit_repo" && e.content.includes(tip ?? "-"));
      expect(pushes).toHaveLength(1);
      // Nothing is left to merge, and asking again says so.
      expect((await merge(index)).status).toBe(422);
    },
    SLOW,
  );

  it(
    "a merge killed before the base branch moved stays open, and merges later",
    async () => {
      const index = await openPull("second", "The second");
      const before = await remoteTip("main");
      await crashing("merge-before-move", () => merge(index));
      expect(await remoteTip("main")).toBe(before);
      const pull = (await api(server.url, "GET", `/repos/alice/project/pulls/${index}`, { token })).json;
      expect(pull).toMatchObject({ merged: false, state: "open" });
      expect((await merge(index)).status).toBe(200);
      const merged = (await api(server.url, "GET", `/repos/alice/project/pulls/${index}`, { token })).json;
      expect(merged.merged).toBe(true);
      const entries = (await feed()).filter((e) => e.op_type === "merge_pull_request");
      expect(entries.filter((e) => e.content.startsWith(`${index}|`))).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "a push killed after git applied it is recorded at start-up, once",
    async () => {
      await gitOk(clone, ["pull", "-q", "origin", "main"]);
      const pushed = await commit("pushed.txt", "pushed\n", "Pushed before the crash");
      await crashing("push-after-move", () => git(clone, ["push", "-q", "origin", "main"]));
      expect(await remoteTip("main")).toBe(pushed);
      const entries = (await feed()).filter((e) => e.op_type === "commit_repo" && e.content.includes(pushed));
      expect(entries).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "a file written through the API and killed after the branch moved is recorded, once",
    async () => {
      let written = "";
      await crashing("contents-after-move", async () => {
        const res = await api(server.url, "POST", "/repos/alice/project/contents/api.txt", {
          token,
          body: { content: Buffer.from("api\n").toString("base64"), message: "Written by the API" },
        });
        written = res.json?.commit?.sha ?? "";
      });
      expect(written).toBe("");
      const tip = await remoteTip("main");
      const file = await api(server.url, "GET", "/repos/alice/project/contents/api.txt", { token });
      expect(file.status).toBe(200);
      const entries = (await feed()).filter(
        (e) => e.op_type === "commit_repo" && e.content.includes(tip ?? "-"),
      );
      expect(entries).toHaveLength(1);
    },
    SLOW,
  );

  it(
    "a branch deleted through the API and killed after the ref moved is recorded as an uninterrupted one is",
    async () => {
      await gitOk(clone, ["pull", "-q", "origin", "main"]);
      for (const branch of ["plain-gone", "crash-gone"])
        await gitOk(clone, ["push", "-q", "origin", `main:refs/heads/${branch}`]);
      const deletions = async (branch: string) =>
        (await feed()).filter((e) => e.op_type === "delete_branch" && e.ref_name === `refs/heads/${branch}`)
          .length;
      const plain = await api(server.url, "DELETE", "/repos/alice/project/branches/plain-gone", { token });
      expect(plain.status).toBe(204);
      const uninterrupted = await deletions("plain-gone");
      expect(uninterrupted).toBeGreaterThan(0);
      await crashing("ref-after-move", () =>
        api(server.url, "DELETE", "/repos/alice/project/branches/crash-gone", { token }),
      );
      expect(await remoteTip("crash-gone")).toBeFalsy();
      expect(await deletions("crash-gone")).toBe(uninterrupted);
    },
    SLOW,
  );

  /** The feed's entries of `op` on `branch` (a server writes one per user it notifies). */
  const entriesOf = async (op: string, branch: string) =>
    (await feed()).filter((e) => e.op_type === op && e.ref_name === `refs/heads/${branch}`).length;

  it(
    "a branch renamed through the API and killed after git renamed it is recorded, its pull requests follow",
    async () => {
      await gitOk(clone, ["pull", "-q", "origin", "main"]);
      for (const branch of ["plain-old", "crash-old"])
        await gitOk(clone, ["push", "-q", "origin", `main:refs/heads/${branch}`]);
      const rename = (from: string, to: string) =>
        api(server.url, "PATCH", `/repos/alice/project/branches/${from}`, { token, body: { name: to } });
      expect((await rename("plain-old", "plain-new")).status).toBe(204);
      const uninterrupted = {
        deleted: await entriesOf("delete_branch", "plain-old"),
        created: await entriesOf("commit_repo", "plain-new"),
      };
      expect(uninterrupted.deleted).toBeGreaterThan(0);
      expect(uninterrupted.created).toBeGreaterThan(0);
      // A pull request into the branch, which must follow it to its new name.
      await gitOk(clone, ["checkout", "-qb", "into-renamed", "main"]);
      await commit("into-renamed.txt", "into\n", "Into the renamed branch");
      await gitOk(clone, ["push", "-q", "origin", "into-renamed"]);
      await gitOk(clone, ["checkout", "-q", "main"]);
      const opened = await api(server.url, "POST", "/repos/alice/project/pulls", {
        token,
        body: { head: "into-renamed", base: "crash-old", title: "Into the renamed branch" },
      });
      expect(opened.status).toBe(201);
      await crashing("rename-after-move", () => rename("crash-old", "crash-new"));
      expect(await remoteTip("crash-old")).toBeFalsy();
      expect(await remoteTip("crash-new")).toBeTruthy();
      const pull = await api(server.url, "GET", `/repos/alice/project/pulls/${opened.json.number}`, {
        token,
      });
      expect(pull.json.base.ref).toBe("crash-new");
      expect(await entriesOf("delete_branch", "crash-old")).toBe(uninterrupted.deleted);
      expect(await entriesOf("commit_repo", "crash-new")).toBe(uninterrupted.created);
    },
    SLOW,
  );

  it(
    "a head branch deleted after its merge and killed after git deleted it is recorded, once",
    async () => {
      const mergeAndDelete = (index: number) =>
        api(server.url, "POST", `/repos/alice/project/pulls/${index}/merge`, {
          token,
          body: { Do: "merge", delete_branch_after_merge: true },
        });
      const deletedOnTimeline = async (index: number) =>
        (
          (await api(server.url, "GET", `/repos/alice/project/issues/${index}/timeline`, { token })).json as {
            type: string;
          }[]
        ).filter((c) => c.type === "delete_branch").length;
      const plain = await openPull("plain-head", "Plain head");
      expect((await mergeAndDelete(plain)).status).toBe(200);
      const uninterrupted = await entriesOf("delete_branch", "plain-head");
      expect(uninterrupted).toBeGreaterThan(0);
      expect(await deletedOnTimeline(plain)).toBe(1);
      const index = await openPull("crash-head", "Crash head");
      await crashing("merged-head-after-move", () => mergeAndDelete(index));
      expect(await remoteTip("crash-head")).toBeFalsy();
      const pull = (await api(server.url, "GET", `/repos/alice/project/pulls/${index}`, { token })).json;
      expect(pull.merged).toBe(true);
      expect(await entriesOf("delete_branch", "crash-head")).toBe(uninterrupted);
      expect(await deletedOnTimeline(index)).toBe(1);
    },
    SLOW,
  );

  it(
    "a wiki page written through the API and killed after its branch moved is recorded, once",
    async () => {
      // A hook on wiki events: its delivery history (Kiln's extension) shows each recorded event.
      // Its loopback address is refused by the default allow list, so nothing is ever sent.
      const hook = await api(server.url, "POST", "/repos/alice/project/hooks", {
        token,
        body: {
          type: "forgejo",
          config: { url: "http://127.0.0.1:9/wiki", content_type: "json" },
          events: ["wiki"],
          active: true,
        },
      });
      expect(hook.status).toBe(201);
      const wikiEvents = async () =>
        (
          (
            await api(server.url, "GET", `/repos/alice/project/hooks/${hook.json.id}/deliveries?limit=50`, {
              token,
            })
          ).json as { event: string }[]
        ).filter((d) => d.event === "wiki").length;
      const write = (title: string) =>
        api(server.url, "POST", "/repos/alice/project/wiki/new", {
          token,
          body: { title, content_base64: Buffer.from(`${title}\n`).toString("base64") },
        });
      expect((await write("Plain")).status).toBe(201);
      expect(await wikiEvents()).toBe(1);
      await crashing("wiki-after-move", () => write("Crashed"));
      const page = await api(server.url, "GET", "/repos/alice/project/wiki/page/Crashed", { token });
      expect(page.status).toBe(200);
      expect(await wikiEvents()).toBe(2);
    },
    SLOW,
  );

  it(
    "a fork synced with its parent and killed after its branch moved is recorded as an uninterrupted sync is",
    async () => {
      expect((await api(server.url, "POST", "/orgs", { token, body: { username: "team" } })).status).toBe(
        201,
      );
      const forked = await api(server.url, "POST", "/repos/alice/project/forks", {
        token,
        body: { organization: "team" },
      });
      expect(forked.status).toBe(202);
      const forkPushes = async (sha: string) =>
        (
          (await api(server.url, "GET", "/repos/team/project/activities/feeds?limit=50", { token })).json as {
            op_type: string;
            content: string;
          }[]
        ).filter((e) => e.op_type === "commit_repo" && e.content.includes(sha)).length;
      const forkTip = async () =>
        (await api(server.url, "GET", "/repos/team/project/branches/main", { token })).json.commit
          .id as string;
      const sync = () => api(server.url, "POST", "/repos/team/project/sync_fork", { token });
      await gitOk(clone, ["pull", "-q", "origin", "main"]);
      const plain = await commit("sync-plain.txt", "plain\n", "Synced uninterrupted");
      await gitOk(clone, ["push", "-q", "origin", "main"]);
      expect((await sync()).status).toBe(204);
      const uninterrupted = await forkPushes(plain);
      expect(uninterrupted).toBeGreaterThan(0);
      const crashed = await commit("sync-crash.txt", "crash\n", "Synced through a crash");
      await gitOk(clone, ["push", "-q", "origin", "main"]);
      await crashing("fork-sync-after-move", sync);
      expect(await forkTip()).toBe(crashed);
      expect(await forkPushes(crashed)).toBe(uninterrupted);
    },
    SLOW,
  );

  it(
    "a pull mirror's sync killed after its refs moved is recorded at start-up, its events once",
    async () => {
      // The migration's clone is no sync: the one sync below is the only mirror_sync_push.
      const mirrorPushes = async () =>
        (
          (await api(server.url, "GET", "/repos/alice/copy/activities/feeds?limit=50", { token })).json as {
            op_type: string;
            ref_name: string;
          }[]
        ).filter((e) => e.op_type === "mirror_sync_push" && e.ref_name === "refs/heads/main").length;
      const mirrorTip = async () =>
        (await api(server.url, "GET", "/repos/alice/copy/branches/main", { token })).json.commit.id as string;
      const sync = () => api(server.url, "POST", "/repos/alice/copy/mirror-sync", { token });
      await gitOk(clone, ["pull", "-q", "origin", "main"]);
      await crashing("mirror-sync-after-move", async () => {
        // The mirror follows this server's own repository, at the port this start listens on.
        const made = await api(server.url, "POST", "/repos/migrate", {
          token,
          body: { clone_addr: `${server.url}/alice/project.git`, repo_name: "copy", mirror: true },
        });
        expect(made.status).toBe(201);
        await commit("mirror.txt", "mirrored\n", "Mirrored by the crashed sync");
        await gitOk(clone, ["push", "-q", "origin", "main"]);
        return sync();
      });
      const crashed = (await gitOk(clone, ["rev-parse", "HEAD"])).trim();
      expect(await mirrorTip()).toBe(crashed);
      expect(await mirrorPushes()).toBe(1);
    },
    SLOW,
  );

  it(
    "a ref lock file a killed writer left is removed with its journalled move",
    async () => {
      const index = await openPull("third", "The third");
      // As if the process died inside the ref update, holding git's lock on the base branch.
      await crashing(
        "merge-before-move",
        () => merge(index),
        async () => {},
      );
      const gitdir = findGitdir(work, "project.git");
      expect(gitdir).toBeDefined();
      const lock = join(gitdir as string, "refs", "heads", "main.lock");
      writeFileSync(lock, "");
      const old = new Date(Date.now() - 60_000);
      utimesSync(lock, old, old);
      await restart();
      expect(() => statSync(lock)).toThrow();
      expect((await merge(index)).status).toBe(200);
    },
    SLOW,
  );
});
