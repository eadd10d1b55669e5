import { execFileSync } from "node:child_process";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import type { TestApp, TestUser } from "../../../test/support.js";
import { openWorld } from "../../../test/world.js";

const git = (gitdir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", gitdir, ...args], { encoding: "utf8" }).trim();

/**
 * Pull requests whose head is in a fork (or in the base's parent), driven as a Forgejo client
 * drives them: `head: "owner:branch"`, compare across forks, every merge style, updates of the
 * fork's branch, `allow_maintainer_edit`, and who may read what.
 */
describe.each(DIALECTS)("pull requests from forks on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let base = "";
  let fork = "";
  let n = 0;

  const gitdirOf = async (owner: string, name: string) => {
    const user = await t.services.users.getByName(owner);
    const repo = await t.services.repositories.findByName(user, name);
    if (!repo) throw new Error(`no ${owner}/${name}`);
    return (await t.services.repositories.git(repo)).gitdir;
  };
  /** A branch of bob's fork with one commit, and its pull request into alice/base. */
  async function forkPull(opts: { title?: string; body?: string } = {}) {
    n++;
    const branch = `feature-${n}`;
    const sha = await commitWithGit(fork, branch, { [`feature-${n}.txt`]: `${n}\n` }, `Feature ${n}`);
    const res = await t.call("POST", "/repos/alice/base/pulls", {
      token: bob.token,
      body: { head: `bob:${branch}`, base: "main", title: opts.title ?? `Feature ${n}`, body: opts.body },
    });
    expect(res.status).toBe(201);
    return { index: res.json.number as number, branch, sha, json: res.json };
  }
  const pull = (index: number, token?: string) =>
    t.call("GET", `/repos/alice/base/pulls/${index}`, token ? { token } : {});
  const merge = (index: number, body: Record<string, unknown>) =>
    t.call("POST", `/repos/alice/base/pulls/${index}/merge`, { token: alice.token, body });

  beforeAll(async () => {
    ({
      t,
      users: [alice, bob, carol],
    } = await openWorld(dialect, { users: ["alice", "bob", "carol"], repo: { name: "base" } }));
    expect((await t.call("POST", "/repos/alice/base/forks", { token: bob.token, body: {} })).status).toBe(
      202,
    );
    base = await gitdirOf("alice", "base");
    fork = await gitdirOf("bob", "base");
  });
  afterAll(() => t?.close());

  it("opens a pull request from a fork's branch, kept as refs/pull/N/head in the base", async () => {
    const pr = await forkPull();
    expect(pr.json).toMatchObject({
      state: "open",
      mergeable: true,
      base: { ref: "main", repo: { full_name: "alice/base" } },
      head: { ref: pr.branch, label: pr.branch, sha: pr.sha, repo: { full_name: "bob/base" } },
    });
    expect(git(base, "rev-parse", `refs/pull/${pr.index}/head`)).toBe(pr.sha);
    // The fork's branch is not a branch of the base.
    expect(() => git(base, "rev-parse", "--verify", "--quiet", `refs/heads/${pr.branch}`)).toThrow();
    const commits = await t.call("GET", `/repos/alice/base/pulls/${pr.index}/commits`);
    expect(commits.json.map((c: { sha: string }) => c.sha)).toEqual([pr.sha]);
    const files = await t.call("GET", `/repos/alice/base/pulls/${pr.index}/files`);
    expect(files.json.map((f: { filename: string }) => f.filename)).toEqual([`feature-${n}.txt`]);
    const byBaseHead = await t.call("GET", `/repos/alice/base/pulls/main/bob:${pr.branch}`);
    expect(byBaseHead.json.number).toBe(pr.index);
    const again = await t.call("POST", "/repos/alice/base/pulls", {
      token: bob.token,
      body: { head: `bob:${pr.branch}`, base: "main", title: "twice" },
    });
    expect(again.status).toBe(409);
  });

  it("follows pushes to the fork's branch: new head, refs/pull/N/head, a pull_push entry", async () => {
    const pr = await forkPull();
    const next = await commitWithGit(fork, pr.branch, { "grow.txt": "more\n" }, "Grow it");
    expect((await pull(pr.index)).json.head.sha).toBe(next);
    expect(git(base, "rev-parse", `refs/pull/${pr.index}/head`)).toBe(next);
    const timeline = (await t.call("GET", `/repos/alice/base/issues/${pr.index}/timeline`)).json;
    const pushes = timeline.filter((e: { type: string }) => e.type === "pull_push");
    expect(JSON.parse(pushes.at(-1).body).commit_ids).toEqual([next]);
  });

  it("compares across forks with owner:branch", async () => {
    const branch = "compare-me";
    const sha = await commitWithGit(fork, branch, { "cmp.txt": "c\n" }, "Compare me");
    const res = await t.call("GET", `/repos/alice/base/compare/main...bob:${branch}`);
    expect(res.status).toBe(200);
    expect(res.json.total_commits).toBe(1);
    expect(res.json.commits[0].sha).toBe(sha);
    expect(res.json.files).toEqual([{ filename: "cmp.txt", status: "added" }]);
    // A read copies nothing into the base: its owner's disk (and quota) holds only its own objects.
    expect(() => git(base, "cat-file", "-e", `${sha}^{commit}`)).toThrow();
    expect(
      (await t.call("GET", `/repos/alice/base/compare/main...bob/base:${branch}`)).json.total_commits,
    ).toBe(1);
    const none = await t.call("GET", `/repos/alice/base/compare/main...carol:${branch}`);
    expect(none.status).toBe(404);
    expect(none.json.message).toBe(
      "carol does not have a fork of alice/base and alice/base is not a fork of a repository from carol",
    );
    expect((await t.call("GET", `/repos/alice/base/compare/main...nobody:${branch}`)).json.message).toBe(
      "the owner nobody does not exist",
    );
  });

  it("merges a fork's pull request in every style, naming the fork in the merge message", async () => {
    const merged = await forkPull({ title: "Merge style" });
    const before = git(base, "rev-parse", "main");
    expect((await merge(merged.index, { Do: "merge" })).status).toBe(200);
    expect(git(base, "rev-list", "--parents", "-n1", "main")).toBe(
      `${git(base, "rev-parse", "main")} ${before} ${merged.sha}`,
    );
    expect(git(base, "log", "-1", "--format=%s", "main")).toBe(
      `Merge pull request 'Merge style' (#${merged.index}) from bob/base:${merged.branch} into main`,
    );
    for (const style of ["squash", "rebase", "rebase-merge"]) {
      const pr = await forkPull();
      const res = await merge(pr.index, { Do: style });
      expect(res.status).toBe(200);
      expect(git(base, "ls-tree", "--name-only", "main")).toContain(`feature-${n}.txt`);
      expect((await pull(pr.index)).json).toMatchObject({ merged: true, state: "closed" });
    }
    // Fast-forward: the fork's branch is brought up to date first (by its owner), then merged as is.
    const ff = await forkPull();
    expect(
      (await t.call("POST", `/repos/alice/base/pulls/${ff.index}/update?style=rebase`, { token: bob.token }))
        .status,
    ).toBe(200);
    const head = git(fork, "rev-parse", ff.branch);
    expect((await merge(ff.index, { Do: "fast-forward-only" })).status).toBe(200);
    expect(git(base, "rev-parse", "main")).toBe(head);
  });

  it("updates the fork's branch from the base; maintainers only when the poster allows edits", async () => {
    const pr = await forkPull();
    await commitWithGit(base, "main", { [`base-${n}.txt`]: "b\n" }, "Base moves on");
    const mainTip = git(base, "rev-parse", "main");
    const update = (token: string) => t.call("POST", `/repos/alice/base/pulls/${pr.index}/update`, { token });
    const allow = (token: string, value: boolean) =>
      t.call("PATCH", `/repos/alice/base/pulls/${pr.index}`, {
        token,
        body: { allow_maintainer_edit: value },
      });
    expect((await update(alice.token)).status).toBe(403);
    // Only the poster, who writes to the fork, may allow maintainers' edits.
    expect((await allow(alice.token, true)).status).toBe(403);
    const allowed = await allow(bob.token, true);
    expect(allowed.status).toBe(201);
    expect(allowed.json.allow_maintainer_edit).toBe(true);
    expect((await update(alice.token)).status).toBe(200);
    const head = git(fork, "rev-parse", pr.branch);
    expect(git(fork, "rev-list", "--parents", "-n1", pr.branch)).toBe(`${head} ${pr.sha} ${mainTip}`);
    expect(git(fork, "log", "-1", "--format=%s|%an", pr.branch)).toBe(
      `Merge branch 'main' into ${pr.branch}|alice`,
    );
    expect(await pull(pr.index)).toMatchObject({ json: { head: { sha: head } } });
    expect(git(base, "rev-parse", `refs/pull/${pr.index}/head`)).toBe(head);
    // The update is a push to the fork: its feed entry is in the fork.
    const feed = (await t.call("GET", "/repos/bob/base/activities/feeds", { token: bob.token })).json;
    expect(feed.some((a: { op_type: string; ref_name: string }) => a.ref_name.endsWith(pr.branch))).toBe(
      true,
    );
    await allow(bob.token, false);
    await commitWithGit(base, "main", { [`base-${n}-2.txt`]: "c\n" }, "Base moves again");
    expect((await update(alice.token)).status).toBe(403);
  });

  it("opens a pull request into a fork from its parent's branch (owner:branch of the parent)", async () => {
    const branch = "upstream-work";
    await commitWithGit(base, branch, { "upstream.txt": "u\n" }, "Upstream work");
    const res = await t.call("POST", "/repos/bob/base/pulls", {
      token: bob.token,
      body: { head: `alice:${branch}`, base: "main", title: "Take upstream" },
    });
    expect(res.status).toBe(201);
    expect(res.json.head.repo.full_name).toBe("alice/base");
    expect(git(fork, "rev-parse", `refs/pull/${res.json.number}/head`)).toBe(git(base, "rev-parse", branch));
  });

  it("answers 404 for an owner without a fork, naming no hidden repository", async () => {
    const res = await t.call("POST", "/repos/alice/base/pulls", {
      token: carol.token,
      body: { head: "carol:main", base: "main", title: "no fork" },
    });
    expect(res.status).toBe(404);
    expect(res.json.message).toBe(
      "carol does not have a fork of alice/base and alice/base is not a fork of a repository from carol",
    );
  });

  it("keeps a pull request from a private fork readable to the base's readers, without the fork", async () => {
    const pr = await forkPull();
    expect(
      (await t.call("PATCH", "/repos/bob/base", { token: bob.token, body: { private: true } })).status,
    ).toBe(200);
    const forkId = (await t.call("GET", "/repos/bob/base", { token: bob.token })).json.id as number;
    for (const token of [undefined, carol.token]) {
      const res = await pull(pr.index, token);
      expect(res.status).toBe(200);
      expect(res.json.head).toMatchObject({ ref: pr.branch, sha: pr.sha, repo: null, repo_id: -1 });
      expect(res.text).not.toContain("bob/base");
      expect(res.text).not.toContain(`"repo_id":${forkId},`);
      const list = await t.call("GET", "/repos/alice/base/pulls?state=all", token ? { token } : {});
      expect(list.text).not.toContain("bob/base");
      const commits = await t.call(
        "GET",
        `/repos/alice/base/pulls/${pr.index}/commits`,
        token ? { token } : {},
      );
      expect(commits.json.map((c: { sha: string }) => c.sha)).toEqual([pr.sha]);
      // Nobody learns the private fork through a comparison either.
      const compare = await t.call(
        "GET",
        `/repos/alice/base/compare/main...bob:${pr.branch}`,
        token ? { token } : {},
      );
      expect(compare.status).toBe(404);
    }
    expect((await pull(pr.index, bob.token)).json.head.repo.full_name).toBe("bob/base");
    await t.call("PATCH", "/repos/bob/base", { token: bob.token, body: { private: false } });
  });

  it("keeps a pull request readable once its fork is deleted: closed, its head in refs/pull/N/head", async () => {
    const other = await t.user({ name: "dave" });
    expect((await t.call("POST", "/repos/alice/base/forks", { token: other.token, body: {} })).status).toBe(
      202,
    );
    const daveFork = await gitdirOf("dave", "base");
    const sha = await commitWithGit(daveFork, "gone", { "gone.txt": "g\n" }, "Soon gone");
    const created = await t.call("POST", "/repos/alice/base/pulls", {
      token: other.token,
      body: { head: "dave:gone", base: "main", title: "From a fork that goes" },
    });
    expect(created.status).toBe(201);
    expect((await t.call("DELETE", "/repos/dave/base", { token: other.token })).status).toBe(204);
    const res = await pull(created.json.number);
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      state: "closed",
      merged: false,
      head: { ref: `refs/pull/${created.json.number}/head`, sha, repo: null, repo_id: -1 },
    });
    const commits = await t.call("GET", `/repos/alice/base/pulls/${created.json.number}/commits`);
    expect(commits.json.map((c: { sha: string }) => c.sha)).toEqual([sha]);
    // Closed with the fork, by whoever deleted it (Forgejo's CloseRepoBranchesPulls).
    const timeline = (await t.call("GET", `/repos/alice/base/issues/${created.json.number}/timeline`)).json;
    expect(timeline.at(-1)).toMatchObject({ type: "close", user: { login: "dave" } });
  });
});
