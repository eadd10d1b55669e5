import { execFileSync } from "node:child_process";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, type TestRepo, usageOf } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const git = (gitdir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", gitdir, ...args], { encoding: "utf8" }).trim();

describe.each(DIALECTS)("merging pull requests on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let repo: TestRepo;
  let n = 0;

  /** A new branch with two commits by the writer, and a pull request of it into `base`. */
  async function pull(opts: { base?: string; files?: Record<string, string>; title?: string } = {}) {
    n++;
    const branch = `topic-${n}`;
    await commitWithGit(
      repo.gitdir,
      branch,
      opts.files ?? { [`topic-${n}.txt`]: "one\n" },
      `Start topic ${n}`,
    );
    await commitWithGit(repo.gitdir, branch, { [`topic-${n}-b.txt`]: "two\n" }, `Finish topic ${n}`);
    const res = await t.call("POST", `${repo.path}/pulls`, {
      token: writer.token,
      body: { head: branch, base: opts.base ?? "main", title: opts.title ?? `Topic ${n}` },
    });
    expect(res.status).toBe(201);
    return { index: res.json.number as number, branch, head: res.json.head.sha as string };
  }
  const merge = (index: number, body: Record<string, unknown>, token = owner.token) =>
    t.call("POST", `${repo.path}/pulls/${index}/merge`, { token, body });
  const main = () => git(repo.gitdir, "rev-parse", "main");

  beforeAll(async () => {
    t = await openTestApp(dialect, {}, { listen: true });
    owner = await t.user();
    writer = await t.user();
    reader = await t.user();
    repo = await createRepo(t, owner, "merging");
    for (const [user, permission] of [
      [writer, "write"],
      [reader, "read"],
    ] as const) {
      const res = await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: owner.token,
        body: { permission },
      });
      expect(res.status).toBe(204);
    }
  });
  afterAll(() => t?.close());

  it("merges with a merge commit, closes the pull request and counts the new objects against the owner", async () => {
    const pr = await pull({ title: "First topic" });
    await commitWithGit(repo.gitdir, "main", { "base.txt": "moved on\n" }, "Base moves");
    const base = main();
    const usage = (await usageOf(t, owner.name)).reposPublic;
    const res = await merge(pr.index, { Do: "merge", MergeMessageField: "Thanks!" });
    expect(res.status).toBe(200);
    const merged = main();
    expect(git(repo.gitdir, "rev-list", "--parents", "-n1", "main")).toBe(`${merged} ${base} ${pr.head}`);
    expect(git(repo.gitdir, "log", "-1", "--format=%B", "main")).toBe(
      `Merge pull request 'First topic' (#${pr.index}) from ${pr.branch} into main\n\nThanks!`,
    );
    expect(git(repo.gitdir, "log", "-1", "--format=%an|%cn", "main")).toBe(`${owner.name}|${owner.name}`);
    const json = (await t.call("GET", `${repo.path}/pulls/${pr.index}`, { token: reader.token })).json;
    // Forgejo's `mergeable` stays what the last check said (its Mergeable()), merged or not.
    expect(json).toMatchObject({ merged: true, merge_commit_sha: merged, state: "closed", mergeable: true });
    expect(json.merged_by.login).toBe(owner.name);
    expect(json.merged_at).not.toBeNull();
    expect(
      (await t.call("GET", `${repo.path}/pulls/${pr.index}/merge`, { token: reader.token })).status,
    ).toBe(204);
    expect((await usageOf(t, owner.name)).reposPublic).toBeGreaterThan(usage);
    const again = await merge(pr.index, { Do: "merge" });
    expect(again.status).toBe(422);
    expect(again.json.message).toBe("the pull request is already merged");
  });

  it("squashes into one commit by the poster, committed by the merger, with Forgejo's trailers", async () => {
    const pr = await pull({ title: "Squash me" });
    const base = main();
    const res = await merge(pr.index, { do: "squash" });
    expect(res.status).toBe(200);
    expect(git(repo.gitdir, "rev-list", "--parents", "-n1", "main")).toBe(`${main()} ${base}`);
    const email = `${writer.name}@example.com`;
    expect(git(repo.gitdir, "log", "-1", "--format=%an <%ae>|%cn|%B", "main")).toBe(
      `${writer.name} <${email}>|${owner.name}|Squash me (#${pr.index})\n\nCo-authored-by: ${writer.name} <${email}>\nCo-committed-by: ${writer.name} <${email}>`,
    );
    expect(git(repo.gitdir, "ls-tree", "--name-only", "main")).toContain(`topic-${n}-b.txt`);
  });

  it("rebases the commits onto the base keeping their authors, and rebase-merges with a merge commit", async () => {
    const pr = await pull();
    await commitWithGit(repo.gitdir, "main", { "base2.txt": "again\n" }, "Base moves again");
    const base = main();
    expect((await merge(pr.index, { Do: "rebase" })).status).toBe(200);
    expect(git(repo.gitdir, "log", "--format=%s|%an|%cn|%P", `${base}..main`).split("\n")).toEqual([
      expect.stringMatching(new RegExp(`^Finish topic ${n}\\|Git User\\|${owner.name}\\|[0-9a-f]{40}$`)),
      `Start topic ${n}|Git User|${owner.name}|${base}`,
    ]);
    const second = await pull();
    const before = main();
    expect((await merge(second.index, { Do: "rebase-merge" })).status).toBe(200);
    const parents = git(repo.gitdir, "rev-list", "--parents", "-n1", "main").split(" ");
    expect(parents[1]).toBe(before);
    expect(git(repo.gitdir, "log", "--format=%s", `${before}..${parents[2]}`).split("\n")).toEqual([
      `Finish topic ${n}`,
      `Start topic ${n}`,
    ]);
  });

  it("fast-forwards only a head that contains the base, after an update by rebase", async () => {
    const pr = await pull();
    await commitWithGit(repo.gitdir, "main", { "base3.txt": "x\n" }, "Base moves once more");
    const refused = await merge(pr.index, { Do: "fast-forward-only" });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toMatch(/^Not possible to fast-forward/);
    expect(
      (await t.call("POST", `${repo.path}/pulls/${pr.index}/update?style=rebase`, { token: reader.token }))
        .status,
    ).toBe(403);
    expect(
      (await t.call("POST", `${repo.path}/pulls/${pr.index}/update?style=rebase`, { token: writer.token }))
        .status,
    ).toBe(200);
    const head = git(repo.gitdir, "rev-parse", pr.branch);
    expect(git(repo.gitdir, "merge-base", "--is-ancestor", "main", head)).toBe("");
    const upToDate = await t.call("POST", `${repo.path}/pulls/${pr.index}/update`, { token: writer.token });
    expect(upToDate.status).toBe(422);
    expect((await merge(pr.index, { Do: "fast-forward-only" })).status).toBe(200);
    expect(main()).toBe(head);
  });

  it("updates a head by merging the base into it", async () => {
    const pr = await pull();
    await commitWithGit(repo.gitdir, "main", { "base4.txt": "y\n" }, "Base moves for the update");
    const base = main();
    expect(
      (await t.call("POST", `${repo.path}/pulls/${pr.index}/update`, { token: writer.token })).status,
    ).toBe(200);
    const head = git(repo.gitdir, "rev-parse", pr.branch);
    expect(git(repo.gitdir, "rev-list", "--parents", "-n1", pr.branch)).toBe(`${head} ${pr.head} ${base}`);
    expect(git(repo.gitdir, "log", "-1", "--format=%s", pr.branch)).toBe(
      `Merge branch 'main' into ${pr.branch}`,
    );
    const json = (await t.call("GET", `${repo.path}/pulls/${pr.index}`, { token: reader.token })).json;
    expect(json.head.sha).toBe(head);
  });

  it("refuses merges with 422 naming the reason, and a stale head with 409, leaving the repository as it was", async () => {
    const pr = await pull({ files: { "shared.txt": "head side\n" } });
    await commitWithGit(repo.gitdir, "main", { "shared.txt": "base side\n" }, "Conflicting base");
    const base = main();
    const conflict = await merge(pr.index, { Do: "merge" });
    expect(conflict.status).toBe(422);
    expect(conflict.json.message).toBe("there are merge conflicts [files: shared.txt]");
    expect(main()).toBe(base);

    const ok = await pull();
    const notAllowed = await merge(ok.index, { Do: "merge" }, reader.token);
    expect(notAllowed.status).toBe(422);
    expect(notAllowed.json.message).toBe("User not allowed to merge PR");
    const stale = await merge(ok.index, { Do: "merge", head_commit_id: "0".repeat(40) });
    expect(stale.status).toBe(409);
    expect(stale.json.message).toBe("head out of date");
    const badStyle = await merge(ok.index, { Do: "octopus" });
    expect(badStyle.status).toBe(422);
    expect(badStyle.json.message).toBe("[Do]: In");
    expect(
      (await t.call("PATCH", repo.path, { token: owner.token, body: { allow_squash_merge: false } })).json,
    ).toMatchObject({
      allow_squash_merge: false,
    });
    const disallowed = await merge(ok.index, { Do: "squash" });
    expect(disallowed.status).toBe(422);
    expect(disallowed.json.message).toBe("squash is not an allowed merge style for this repository");
    await t.call("PATCH", repo.path, { token: owner.token, body: { allow_squash_merge: true } });
    await t.call("PATCH", `${repo.path}/pulls/${ok.index}`, {
      token: writer.token,
      body: { title: "WIP: not yet" },
    });
    const wip = await merge(ok.index, { Do: "merge" });
    expect(wip.json.message).toBe("Work in progress PRs cannot be merged");
    await t.call("PATCH", `${repo.path}/pulls/${ok.index}`, {
      token: writer.token,
      body: { state: "closed" },
    });
    const closed = await merge(ok.index, { Do: "merge" });
    expect(closed.status).toBe(422);
    expect(closed.json.message).toBe("the pull request is closed");
    expect(main()).toBe(base);
  });

  it("applies the base branch's protection: whitelist, outdated head, protected files, signed commits", async () => {
    const protect = (body: Record<string, unknown>) =>
      t.call("POST", `${repo.path}/branch_protections`, {
        token: owner.token,
        body: { rule_name: "main", ...body },
      });
    const unprotect = () => t.call("DELETE", `${repo.path}/branch_protections/main`, { token: owner.token });
    const pr = await pull({ files: { "docs/secret.md": "x\n" } });
    expect(
      (await protect({ enable_merge_whitelist: true, merge_whitelist_usernames: [reader.name] })).status,
    ).toBe(201);
    // A whitelisted reader merges without write access; the owner, not on the list, may not.
    const byOwner = await merge(pr.index, { Do: "merge" });
    expect(byOwner.json.message).toBe("User not allowed to merge PR");
    await unprotect();
    expect((await protect({ required_approvals: 1 })).status).toBe(201);
    const approvals = await merge(pr.index, { Do: "merge" });
    expect(approvals.status).toBe(422);
    expect(approvals.json.message).toBe("not allowed to merge [reason: Does not have enough approvals]");
    await unprotect();
    await commitWithGit(repo.gitdir, "main", { "ahead.txt": "ahead\n" }, "Base ahead");
    await protect({ block_on_outdated_branch: true });
    expect((await merge(pr.index, { Do: "merge" })).json.message).toBe(
      "not allowed to merge [reason: The head branch is behind the base branch]",
    );
    await unprotect();
    await protect({ protected_file_patterns: "docs/*.md" });
    expect((await merge(pr.index, { Do: "merge" })).json.message).toBe(
      "not allowed to merge [reason: Changed protected files]",
    );
    await unprotect();
    await protect({ require_signed_commits: true });
    expect((await merge(pr.index, { Do: "merge" })).json.message).toMatch(/^won't sign: nokey/);
    // A head that contains the base fast-forwards only if its commits are signed; these are not.
    expect(
      (await t.call("POST", `${repo.path}/pulls/${pr.index}/update?style=merge`, { token: writer.token }))
        .status,
    ).toBe(200);
    const unsigned = await merge(pr.index, { Do: "fast-forward-only" });
    expect(unsigned.status).toBe(422);
    expect(unsigned.json.message).toMatch(/^branch main is protected from unverified commit [0-9a-f]{40}$/);
    await unprotect();
    await protect({ enable_merge_whitelist: true, merge_whitelist_usernames: [reader.name] });
    const byReader = await merge(pr.index, { Do: "merge" }, reader.token);
    expect(byReader.status).toBe(200);
    await unprotect();
  });

  it("updates a head only as its own protection allows a push of the same commits", async () => {
    const pr = await pull();
    await commitWithGit(
      repo.gitdir,
      "main",
      { "for-update.txt": "u\n" },
      "Base moves before a protected update",
    );
    const protect = (body: Record<string, unknown>) =>
      t.call("POST", `${repo.path}/branch_protections`, {
        token: owner.token,
        body: { rule_name: pr.branch, ...body },
      });
    const unprotect = () =>
      t.call("DELETE", `${repo.path}/branch_protections/${pr.branch}`, { token: owner.token });
    expect((await protect({ enable_push: true, require_signed_commits: true })).status).toBe(201);
    const signed = await t.call("POST", `${repo.path}/pulls/${pr.index}/update`, { token: writer.token });
    expect(signed.status).toBe(403);
    expect(signed.json.message).toMatch(
      new RegExp(`^branch ${pr.branch} is protected from unverified commit`),
    );
    await unprotect();
    await protect({ enable_push: true, protected_file_patterns: "for-update.txt" });
    const files = await t.call("POST", `${repo.path}/pulls/${pr.index}/update`, { token: writer.token });
    expect(files.status).toBe(403);
    expect(files.json.message).toBe(`branch ${pr.branch} is protected from changing file for-update.txt`);
    // A rebase rewrites the head: a force push, which protection refuses too.
    await unprotect();
    await protect({ enable_push: true });
    expect(
      (await t.call("POST", `${repo.path}/pulls/${pr.index}/update?style=rebase`, { token: writer.token }))
        .status,
    ).toBe(403);
    expect(git(repo.gitdir, "rev-parse", pr.branch)).toBe(pr.head);
    await unprotect();
  });

  it("moves pull requests based on a deleted head only where that makes no duplicate or self-join", async () => {
    const parent = await pull();
    await commitWithGit(repo.gitdir, `${parent.branch}-y`, { "y.txt": "y\n" }, "Y");
    const open = (head: string, base: string) =>
      t.call("POST", `${repo.path}/pulls`, {
        token: writer.token,
        body: { head, base, title: `${head} into ${base}` },
      });
    const onParent = (await open(`${parent.branch}-y`, parent.branch)).json.number;
    const onMain = (await open(`${parent.branch}-y`, "main")).json.number;
    expect((await merge(parent.index, { Do: "merge", delete_branch_after_merge: true })).status).toBe(200);
    const get = async (index: number) =>
      (await t.call("GET", `${repo.path}/pulls/${index}`, { token: reader.token })).json;
    // Moving it to main would duplicate the open Y → main: it stays and is closed with its branch.
    expect(await get(onParent)).toMatchObject({ state: "closed", base: { ref: parent.branch } });
    expect(await get(onMain)).toMatchObject({ state: "open", base: { ref: "main" } });
  });

  it("records a manual merge only when allowed and with a commit of the base", async () => {
    const pr = await pull();
    const notAllowed = await merge(pr.index, { Do: "manually-merged", MergeCommitID: main() });
    expect(notAllowed.json.message).toBe("manually-merged is not an allowed merge style for this repository");
    await t.call("PATCH", repo.path, { token: owner.token, body: { allow_manual_merge: true } });
    expect((await merge(pr.index, { Do: "manually-merged", merge_commit_id: pr.head })).json.message).toBe(
      "Wrong commit ID",
    );
    const done = await merge(pr.index, { Do: "manually-merged", MergeCommitID: main() });
    expect(done.status).toBe(200);
    const json = (await t.call("GET", `${repo.path}/pulls/${pr.index}`, { token: reader.token })).json;
    expect(json).toMatchObject({ merged: true, merge_commit_sha: main(), state: "closed" });
  });

  it("deletes the head branch after the merge when asked, moving pull requests based on it", async () => {
    const pr = await pull();
    await commitWithGit(repo.gitdir, `${pr.branch}-child`, { "child.txt": "c\n" }, "Child");
    const child = await t.call("POST", `${repo.path}/pulls`, {
      token: writer.token,
      body: { head: `${pr.branch}-child`, base: pr.branch, title: "child" },
    });
    expect(child.status).toBe(201);
    expect((await merge(pr.index, { Do: "merge", delete_branch_after_merge: true })).status).toBe(200);
    expect(git(repo.gitdir, "branch", "--list", pr.branch)).toBe("");
    const moved = (await t.call("GET", `${repo.path}/pulls/${child.json.number}`, { token: reader.token }))
      .json;
    expect(moved.base.ref).toBe("main");
    const merged = (await t.call("GET", `${repo.path}/pulls/${pr.index}`, { token: reader.token })).json;
    expect(merged.head).toMatchObject({ ref: `refs/pull/${pr.index}/head`, sha: pr.head });
  });

  it("schedules a merge for later, refuses a second schedule and lets it be cancelled", async () => {
    const pr = await pull();
    expect((await merge(pr.index, { Do: "merge", merge_when_checks_succeed: true })).status).toBe(201);
    const twice = await merge(pr.index, { Do: "merge", merge_when_checks_succeed: true });
    expect(twice.status).toBe(409);
    expect(
      (await t.call("DELETE", `${repo.path}/pulls/${pr.index}/merge`, { token: reader.token })).status,
    ).toBe(403);
    expect(
      (await t.call("DELETE", `${repo.path}/pulls/${pr.index}/merge`, { token: owner.token })).status,
    ).toBe(204);
    expect(
      (await t.call("DELETE", `${repo.path}/pulls/${pr.index}/merge`, { token: owner.token })).status,
    ).toBe(404);
    expect((await t.call("GET", `${repo.path}/pulls/${pr.index}/merge`, { token: owner.token })).status).toBe(
      404,
    );
  });

  it("merges two pull requests into the same base at once, one after the other", async () => {
    const [a, b] = [await pull(), await pull()];
    const results = await Promise.all([merge(a.index, { Do: "merge" }), merge(b.index, { Do: "merge" })]);
    expect(results.map((r) => r.status)).toEqual([200, 200]);
    for (const pr of [a, b])
      expect(git(repo.gitdir, "merge-base", "--is-ancestor", pr.head, "main")).toBe("");
    expect(git(repo.gitdir, "rev-list", "--merges", "--count", `${a.head}..main`)).not.toBe("0");
  });
});

describe.each(DIALECTS)("merging under [quota] ENFORCE on %s", (dialect) => {
  let t: TestApp;

  beforeAll(async () => {
    // Every owner may hold 50 bytes of git data: any repository with a commit is over it.
    t = await openTestApp(
      dialect,
      { quota: { enabled: true, enforce: true, defaultTotal: 50 } },
      { listen: true },
    );
  });
  afterAll(() => t?.close());

  it("refuses merges and updates into a repository whose owner is over quota (size:git:all), changing nothing", async () => {
    const owner = await t.user();
    const repo = await createRepo(t, owner, "full");
    await commitWithGit(repo.gitdir, "topic", { "topic.txt": "t\n" }, "Topic");
    await commitWithGit(repo.gitdir, "main", { "main.txt": "m\n" }, "Main moves");
    await t.services.repositories.refreshSize(repo.id);
    const pr = await t.call("POST", `${repo.path}/pulls`, {
      token: owner.token,
      body: { head: "topic", base: "main", title: "over quota" },
    });
    expect(pr.status).toBe(201);
    const base = git(repo.gitdir, "rev-parse", "main");
    const head = git(repo.gitdir, "rev-parse", "topic");
    for (const [path, body] of [
      [`${repo.path}/pulls/${pr.json.number}/merge`, { Do: "merge" }],
      [`${repo.path}/pulls/${pr.json.number}/update`, undefined],
    ] as const) {
      const res = await t.call("POST", path, { token: owner.token, ...(body ? { body } : {}) });
      expect(res.status, path).toBe(413);
      expect(res.json).toMatchObject({ message: "quota exceeded", username: owner.name });
    }
    expect(git(repo.gitdir, "rev-parse", "main")).toBe(base);
    expect(git(repo.gitdir, "rev-parse", "topic")).toBe(head);
  });
});
