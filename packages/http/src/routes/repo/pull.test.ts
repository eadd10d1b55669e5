import { execFileSync } from "node:child_process";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const git = (gitdir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", gitdir, ...args], { encoding: "utf8" });

describe.each(DIALECTS)("pull requests on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;
  let bugLabel = 0;
  let milestone = 0;

  const open = (r: TestRepo, user: TestUser, body: Record<string, unknown>) =>
    t.call("POST", `${r.path}/pulls`, { token: user.token, body });

  beforeAll(async () => {
    t = await openTestApp(dialect, {}, { listen: true });
    owner = await t.user();
    writer = await t.user();
    reader = await t.user();
    outsider = await t.user();
    repo = await createRepo(t, owner, "pulls");
    secret = await createRepo(t, owner, "hidden", { private: true });
    for (const r of [repo, secret]) {
      for (const [user, permission] of [
        [writer, "write"],
        [reader, "read"],
      ] as const) {
        const res = await t.call("PUT", `${r.path}/collaborators/${user.name}`, {
          token: owner.token,
          body: { permission },
        });
        expect(res.status).toBe(204);
      }
    }
    await commitWithGit(repo.gitdir, "feature", { "feature.txt": "one\n" }, "Add feature");
    await commitWithGit(
      repo.gitdir,
      "feature",
      { "feature.txt": "one\ntwo\n", "README.md": "# changed\n" },
      "Grow feature",
    );
    await commitWithGit(repo.gitdir, "other", { "other.txt": "x\n" }, "Other work");
    await commitWithGit(secret.gitdir, "topic", { "topic.txt": "secret\n" }, "Secret work");
    bugLabel = (
      await t.call("POST", `${repo.path}/labels`, {
        token: owner.token,
        body: { name: "bug", color: "ee0701" },
      })
    ).json.id;
    milestone = (
      await t.call("POST", `${repo.path}/milestones`, { token: owner.token, body: { title: "v1" } })
    ).json.id;
  });
  afterAll(() => t?.close());

  it("opens a pull request numbered with the issues, in Forgejo's shape, with its state checked", async () => {
    const issue = await t.call("POST", `${repo.path}/issues`, {
      token: owner.token,
      body: { title: "an issue" },
    });
    expect(issue.json.number).toBe(1);
    const res = await open(repo, writer, {
      head: "feature",
      base: "main",
      title: "Add the feature",
      body: `Please review, @${reader.name}`,
      labels: [bugLabel],
      milestone,
      assignees: [writer.name],
    });
    expect(res.status).toBe(201);
    const head = git(repo.gitdir, "rev-parse", "feature").trim();
    const base = git(repo.gitdir, "rev-parse", "main").trim();
    expect(res.json).toMatchObject({
      number: 2,
      title: "Add the feature",
      state: "open",
      draft: false,
      mergeable: true,
      merged: false,
      merged_at: null,
      merge_commit_sha: null,
      merged_by: null,
      additions: 3,
      deletions: 1,
      changed_files: 2,
      merge_base: base,
      html_url: `http://kiln.test/${owner.name}/pulls/pulls/2`,
      url: `http://kiln.test/${owner.name}/pulls/pulls/2`,
      diff_url: `http://kiln.test/${owner.name}/pulls/pulls/2.diff`,
      patch_url: `http://kiln.test/${owner.name}/pulls/pulls/2.patch`,
      base: { label: "main", ref: "main", sha: base, repo_id: repo.id },
      head: { label: "feature", ref: "feature", sha: head, repo_id: repo.id },
      requested_reviewers: [],
      requested_reviewers_teams: [],
      review_comments: 0,
      flow: 0,
    });
    expect(res.json.user.login).toBe(writer.name);
    // Forgejo's PullRequest has no field for conflicting files.
    expect(res.json).not.toHaveProperty("conflicted_files");
    expect(res.json.labels.map((l: { name: string }) => l.name)).toEqual(["bug"]);
    expect(res.json.milestone.id).toBe(milestone);
    expect(res.json.assignees.map((u: { login: string }) => u.login)).toEqual([writer.name]);
    expect(res.json.base.repo.full_name).toBe(`${owner.name}/pulls`);
    // Forgejo keeps the head under refs/pull/N/head.
    expect(git(repo.gitdir, "rev-parse", "refs/pull/2/head").trim()).toBe(head);
    // It is an issue too, and counted as an open pull request.
    const asIssue = await t.call("GET", `${repo.path}/issues/2`, { token: reader.token });
    expect(asIssue.json.pull_request).toMatchObject({ merged: false, draft: false });
    const repoJson = await t.call("GET", repo.path, { token: owner.token });
    expect(repoJson.json.open_pr_counter).toBe(1);
  });

  it("notifies the assignee and the mentioned user, not the author (one notification row each)", async () => {
    const res = await open(repo, writer, {
      head: "other",
      base: "main",
      title: "Other work",
      body: `cc @${reader.name} @${reader.name}`,
      assignees: [owner.name],
    });
    expect(res.status).toBe(201);
    const rows = await t.services.ctx.db
      .selectFrom("notification")
      .select(["userId"])
      .where(
        "issueId",
        "=",
        (
          await t.services.ctx.db
            .selectFrom("issue")
            .select("id")
            .where("repoId", "=", repo.id)
            .where("index", "=", res.json.number)
            .executeTakeFirstOrThrow()
        ).id,
      )
      .execute();
    expect(rows.map((r) => r.userId).sort()).toEqual([owner.id, reader.id].sort());
  });

  it("refuses a second open pull request for the same branches, missing branches and head equal to base", async () => {
    const again = await open(repo, writer, { head: "feature", base: "main", title: "again" });
    expect(again.status).toBe(409);
    expect(again.json.message).toMatch(
      /^pull request already exists for these targets \[id: \d+, issue_id: 2, /,
    );
    expect((await open(repo, writer, { head: "nope", base: "main", title: "x" })).status).toBe(404);
    expect((await open(repo, writer, { head: "feature", base: "nope", title: "x" })).status).toBe(404);
    const same = await open(repo, writer, { head: "main", base: "main", title: "x" });
    expect(same.status).toBe(422);
    expect(same.json.message).toBe("Invalid PullRequest: There are no changes between the head and the base");
    const owned = await open(repo, writer, { head: `${owner.name}:main`, base: "main", title: "x" });
    expect(owned.status).toBe(422);
    const missing = await open(repo, writer, { base: "main", title: "x" });
    expect(missing.status).toBe(422);
    expect(missing.json.message).toBe("[Head]: Required");
  });

  it("lists pull requests with filters, X-Total-Count and Link", async () => {
    const all = await t.call("GET", `${repo.path}/pulls?limit=1`, { token: reader.token });
    expect(all.status).toBe(200);
    expect(all.headers.get("X-Total-Count")).toBe("2");
    expect(all.headers.get("Link")).toContain('rel="next"');
    expect(all.json.map((p: { number: number }) => p.number)).toEqual([3]);
    const labelled = await t.call("GET", `${repo.path}/pulls?labels=${bugLabel}`, { token: reader.token });
    expect(labelled.json.map((p: { number: number }) => p.number)).toEqual([2]);
    const byMilestone = await t.call("GET", `${repo.path}/pulls?milestone=${milestone}&sort=oldest`, {
      token: reader.token,
    });
    expect(byMilestone.json.map((p: { number: number }) => p.number)).toEqual([2]);
    const closed = await t.call("GET", `${repo.path}/pulls?state=closed`, { token: reader.token });
    expect(closed.json).toEqual([]);
    expect(closed.headers.get("X-Total-Count")).toBe("0");
    const byPoster = await t.call("GET", `${repo.path}/pulls?poster=${owner.name}`, { token: reader.token });
    expect(byPoster.json).toEqual([]);
    expect((await t.call("GET", `${repo.path}/pulls?labels=x`, { token: reader.token })).status).toBe(422);
  });

  it("finds a pull request by base and head, and lists its commits and files", async () => {
    const found = await t.call("GET", `${repo.path}/pulls/main/feature`, { token: reader.token });
    expect(found.status).toBe(200);
    expect(found.json.number).toBe(2);
    expect((await t.call("GET", `${repo.path}/pulls/main/nothing`, { token: reader.token })).status).toBe(
      404,
    );
    const commits = await t.call("GET", `${repo.path}/pulls/2/commits?limit=1`, { token: reader.token });
    expect(commits.status).toBe(200);
    expect(commits.headers.get("X-Total-Count")).toBe("2");
    expect(commits.json.map((c: { commit: { message: string } }) => c.commit.message.trim())).toEqual([
      "Grow feature",
    ]);
    expect(commits.json[0].stats).toMatchObject({ additions: 2, deletions: 1 });
    const files = await t.call("GET", `${repo.path}/pulls/2/files`, { token: reader.token });
    expect(files.headers.get("X-Total-Count")).toBe("2");
    const head = git(repo.gitdir, "rev-parse", "feature").trim();
    expect(files.json).toEqual([
      {
        filename: "README.md",
        status: "changed",
        additions: 1,
        deletions: 1,
        changes: 2,
        html_url: `http://kiln.test/${owner.name}/pulls/src/commit/${head}/README.md`,
        contents_url: `http://kiln.test/api/v1/repos/${owner.name}/pulls/contents/README.md?ref=${head}`,
        raw_url: `http://kiln.test/${owner.name}/pulls/raw/commit/${head}/README.md`,
      },
      expect.objectContaining({ filename: "feature.txt", status: "added", additions: 2, deletions: 0 }),
    ]);
  });

  it("serves the diff and the patch as git prints them, as plain text with a token", async () => {
    const base = git(repo.gitdir, "merge-base", "main", "feature").trim();
    const diff = await t.call("GET", `${repo.path}/pulls/2.diff`, { token: reader.token });
    expect(diff.status).toBe(200);
    expect(diff.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(diff.text).toBe(git(repo.gitdir, "diff", "-p", base, "feature"));
    const patch = await t.call("GET", `${repo.path}/pulls/2.patch`, { token: reader.token });
    expect(patch.text).toBe(git(repo.gitdir, "format-patch", "--binary", "--stdout", `${base}...feature`));
    expect(patch.text.match(/^Subject: \[PATCH \d\/2\]/gm)).toHaveLength(2);
    expect((await t.call("GET", `${repo.path}/pulls/2.txt`, { token: reader.token })).status).toBe(404);
    expect((await t.call("GET", `${repo.path}/pulls/99.diff`, { token: reader.token })).status).toBe(404);
  });

  it("keeps mergeable and the head current after pushes to head and base, and records the push", async () => {
    const before = (await t.call("GET", `${repo.path}/pulls/2`, { token: reader.token })).json;
    const newHead = await commitWithGit(
      repo.gitdir,
      "feature",
      { "feature.txt": "one\ntwo\nthree\n" },
      "Third",
    );
    const after = (await t.call("GET", `${repo.path}/pulls/2`, { token: reader.token })).json;
    expect(after.head.sha).toBe(newHead);
    expect(after.head.sha).not.toBe(before.head.sha);
    expect(after.additions).toBe(4);
    expect(git(repo.gitdir, "rev-parse", "refs/pull/2/head").trim()).toBe(newHead);
    // A conflicting change on the base makes it unmergeable, naming the file.
    await commitWithGit(repo.gitdir, "main", { "feature.txt": "conflict\n" }, "Conflicting");
    const conflicted = (await t.call("GET", `${repo.path}/pulls/2`, { token: reader.token })).json;
    expect(conflicted).toMatchObject({ mergeable: false });
    expect(conflicted).not.toHaveProperty("conflicted_files");
    const timeline = await t.call("GET", `${repo.path}/issues/2/timeline`, { token: reader.token });
    const pushes = timeline.json.filter((e: { type: string }) => e.type === "pull_push");
    expect(pushes).toHaveLength(2);
    expect(JSON.parse(pushes[1].body)).toEqual({ is_force_push: false, commit_ids: [newHead] });
  });

  it("lets the poster and writers edit, changes the base, and keeps labels to writers", async () => {
    const byPoster = await t.call("PATCH", `${repo.path}/pulls/3`, {
      token: writer.token,
      body: { title: "WIP: other work", body: "edited", labels: null, milestone: null },
    });
    expect(byPoster.status).toBe(201);
    expect(byPoster.json).toMatchObject({
      title: "WIP: other work",
      body: "edited",
      draft: true,
      mergeable: false,
    });
    expect(
      (await t.call("PATCH", `${repo.path}/pulls/3`, { token: reader.token, body: { title: "x" } })).status,
    ).toBe(403);
    const labelled = await t.call("PATCH", `${repo.path}/pulls/3`, {
      token: writer.token,
      body: { labels: [bugLabel] },
    });
    expect(labelled.json.labels.map((l: { name: string }) => l.name)).toEqual(["bug"]);
    await commitWithGit(repo.gitdir, "release", { "release.txt": "r\n" }, "Release branch");
    const moved = await t.call("PATCH", `${repo.path}/pulls/3`, {
      token: writer.token,
      body: { base: "release" },
    });
    expect(moved.status).toBe(201);
    expect(moved.json.base.ref).toBe("release");
    expect(moved.json.base.sha).toBe(git(repo.gitdir, "rev-parse", "release").trim());
    expect(
      (await t.call("PATCH", `${repo.path}/pulls/3`, { token: writer.token, body: { base: "gone" } })).status,
    ).toBe(404);
    const timeline = await t.call("GET", `${repo.path}/issues/3/timeline`, { token: reader.token });
    expect(timeline.json.some((e: { type: string }) => e.type === "change_target_branch")).toBe(true);
  });

  it("opens one pull request for the same branches however many requests race", async () => {
    await commitWithGit(repo.gitdir, "racing", { "racing.txt": "r\n" }, "Racing");
    const results = await Promise.all(
      Array.from({ length: 5 }, () => open(repo, writer, { head: "racing", base: "main", title: "race" })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });

  it("answers a head owner the caller may not see as one that does not exist", async () => {
    const hidden = await t.user({ visibility: "private" });
    const asHidden = await t.call("GET", `${repo.path}/pulls/main/${hidden.name}:feature`, {});
    const asNobody = await t.call("GET", `${repo.path}/pulls/main/nobody-at-all:feature`, {});
    expect(asHidden.status).toBe(404);
    expect(asHidden.json.message).toBe(`the owner ${hidden.name} does not exist`);
    expect(asNobody.json.message).toBe("the owner nobody-at-all does not exist");
    const created = await open(repo, writer, { head: `${hidden.name}:feature`, base: "main", title: "x" });
    expect(created.json.message).toBe(`the owner ${hidden.name} does not exist`);
  });

  it("closes a pull request whose head branch is deleted, and shows a moved base as checking in lists", async () => {
    await commitWithGit(repo.gitdir, "doomed", { "doomed.txt": "d\n" }, "Doomed");
    const doomed = (await open(repo, writer, { head: "doomed", base: "main", title: "doomed" })).json.number;
    expect((await t.call("DELETE", `${repo.path}/branches/doomed`, { token: owner.token })).status).toBe(204);
    const gone = (await t.call("GET", `${repo.path}/pulls/${doomed}`, { token: reader.token })).json;
    expect(gone).toMatchObject({ state: "closed", merged: false, head: { ref: `refs/pull/${doomed}/head` } });
    const merge = await t.call("POST", `${repo.path}/pulls/${doomed}/merge`, {
      token: owner.token,
      body: { Do: "merge" },
    });
    expect(merge.status).toBe(422);
    expect(merge.json.message).toBe("the pull request is closed");
    // A list answers without waiting for checks: what moved shows as `checking` (not mergeable).
    await commitWithGit(repo.gitdir, "main", { "unrelated.txt": "u\n" }, "Base moves");
    const listed = await t.call("GET", `${repo.path}/pulls?state=open`, { token: reader.token });
    const racing = listed.json.find((p: { head: { ref: string } }) => p.head.ref === "racing");
    expect(racing.mergeable).toBe(false);
    // One pull request is checked on the spot.
    const checked = await t.call("GET", `${repo.path}/pulls/${racing.number}`, { token: reader.token });
    expect(checked.json).toMatchObject({
      mergeable: true,
      base: { sha: git(repo.gitdir, "rev-parse", "main").trim() },
    });
  });

  it("hides pull requests of a private repository from outsiders, anonymous callers and public-only tokens", async () => {
    const res = await open(secret, writer, { head: "topic", base: "main", title: "secret" });
    expect(res.status).toBe(201);
    const publicOnly = await t.services.tokens.create(
      await t.services.users.getByName(owner.name),
      "public-only",
      ["public-only", "read:repository"],
    );
    for (const path of [
      `${secret.path}/pulls`,
      `${secret.path}/pulls/1`,
      `${secret.path}/pulls/1.diff`,
      `${secret.path}/pulls/1/files`,
      `${secret.path}/pulls/1/commits`,
      `${secret.path}/pulls/main/topic`,
    ]) {
      for (const token of [outsider.token, publicOnly.secret, undefined]) {
        const got = await t.call("GET", path, token ? { token } : {});
        expect(got.status, path).toBe(404);
        expect(got.text).not.toContain("secret work");
      }
      expect((await t.call("GET", path, { token: reader.token })).status, path).toBe(200);
    }
    expect((await open(secret, outsider, { head: "topic", base: "main", title: "x" })).status).toBe(404);
  });
});
