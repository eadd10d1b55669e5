import { execFileSync } from "node:child_process";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const git = (gitdir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", gitdir, ...args], { encoding: "utf8" }).trim();

const TEN = "1\n2\n3\n4\n5\n6\n7\n8\n9\n10\n";

describe.each(DIALECTS)("pull request reviews on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let author: TestUser;
  let maintainer: TestUser;
  let reader: TestUser;
  let other: TestUser;
  let outsider: TestUser;
  let admin: TestUser;
  let repo: TestRepo;
  let n = 0;

  /** A branch changing line 7 of lines.txt (which main has), and a pull request of it by the author. */
  async function pull(r: TestRepo = repo, by: TestUser = author) {
    n++;
    const branch = `review-${n}`;
    await commitWithGit(r.gitdir, branch, { "lines.txt": TEN.replace("7\n", "seven\n") }, `Change ${n}`);
    const res = await t.call("POST", `${r.path}/pulls`, {
      token: by.token,
      body: { head: branch, base: "main", title: `Review me ${n}` },
    });
    expect(res.status).toBe(201);
    return { index: res.json.number as number, branch, head: res.json.head.sha as string };
  }
  const reviews = (index: number, r: TestRepo = repo) => `${r.path}/pulls/${index}/reviews`;
  const review = (index: number, user: TestUser, body: Record<string, unknown>) =>
    t.call("POST", reviews(index), { token: user.token, body });
  const getPull = async (index: number) =>
    (await t.call("GET", `${repo.path}/pulls/${index}`, { token: owner.token })).json;
  const issueId = async (r: TestRepo, index: number) =>
    (
      await t.services.ctx.db
        .selectFrom("issue")
        .select("id")
        .where("repoId", "=", r.id)
        .where("index", "=", index)
        .executeTakeFirstOrThrow()
    ).id;
  const notified = async (r: TestRepo, index: number) =>
    (
      await t.services.ctx.db
        .selectFrom("notification")
        .select("userId")
        .where("issueId", "=", await issueId(r, index))
        .execute()
    )
      .map((row) => row.userId)
      .sort();

  beforeAll(async () => {
    t = await openTestApp(dialect, {}, { listen: true });
    owner = await t.user();
    author = await t.user();
    maintainer = await t.user();
    reader = await t.user();
    other = await t.user();
    outsider = await t.user();
    admin = await t.user({ admin: true });
    repo = await createRepo(t, owner, "reviewed");
    for (const [user, permission] of [
      [author, "write"],
      [maintainer, "write"],
      [reader, "read"],
      [other, "read"],
    ] as const) {
      const res = await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: owner.token,
        body: { permission },
      });
      expect(res.status).toBe(204);
    }
    await commitWithGit(repo.gitdir, "main", { "lines.txt": TEN }, "Ten lines");
  });
  afterAll(() => t?.close());

  it("creates a review in Forgejo's shape (200), recording the head when no commit is given", async () => {
    const pr = await pull();
    const res = await review(pr.index, reader, { event: "COMMENT", body: "Looks fine" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({
      state: "COMMENT",
      body: "Looks fine",
      commit_id: pr.head,
      stale: false,
      official: false,
      dismissed: false,
      comments_count: 0,
      team: null,
      pull_request_url: `http://kiln.test/${owner.name}/reviewed/pulls/${pr.index}`,
    });
    expect(res.json.user.login).toBe(reader.name);
    expect(res.json.html_url).toMatch(
      new RegExp(`^http://kiln\\.test/${owner.name}/reviewed/pulls/${pr.index}#issuecomment-\\d+$`),
    );
    const entry = Number(res.json.html_url.split("-").pop());
    const timeline = await t.call("GET", `${repo.path}/issues/${pr.index}/timeline`, { token: reader.token });
    const reviewEntry = timeline.json.find((e: { id: number }) => e.id === entry);
    expect(reviewEntry).toMatchObject({ type: "review", review_id: res.json.id });
    // A submitted review counts as a comment and as a review of the pull request.
    const json = await getPull(pr.index);
    expect(json.comments).toBe(1);
    expect(json.review_comments).toBe(1);
    const given = await review(pr.index, maintainer, { event: "APPROVED", commit_id: "a".repeat(40) });
    expect(given.json).toMatchObject({ commit_id: "a".repeat(40), stale: true, official: true });
    // The author hears of it; the reviewer does not.
    const told = await notified(repo, pr.index);
    expect(told).toContain(author.id);
    expect(told).not.toContain(maintainer.id);
    // Reviewers take part from then on: they hear of the next change, as Forgejo's participants do.
    expect(
      (
        await t.call("PATCH", `${repo.path}/pulls/${pr.index}`, {
          token: author.token,
          body: { title: "Renamed" },
        })
      ).status,
    ).toBe(201);
    expect(await notified(repo, pr.index)).toEqual(expect.arrayContaining([reader.id, maintainer.id]));
  });

  it("checks the event with Forgejo's 422 messages, and 404s for a missing pull request", async () => {
    const pr = await pull();
    const cases: [TestUser, Record<string, unknown>, string][] = [
      [author, { event: "APPROVED" }, "approve your own pull is not allowed"],
      [author, { event: "REQUEST_CHANGES", body: "no" }, "reject your own pull is not allowed"],
      [reader, { event: "REQUEST_CHANGES", body: "  " }, "review event REQUEST_CHANGES requires a body"],
      [reader, { event: "COMMENT" }, "review event COMMENT requires a body or a comment"],
      [reader, {}, "review event  requires a body"],
      [reader, { event: "approved", body: "" }, "review event approved requires a body"],
    ];
    for (const [user, body, message] of cases) {
      const res = await review(pr.index, user, body);
      expect(res.status, message).toBe(422);
      expect(res.json.message).toBe(message);
    }
    expect((await review(9999, reader, { event: "COMMENT", body: "x" })).status).toBe(404);
    expect((await t.call("POST", reviews(pr.index), { body: { event: "COMMENT", body: "x" } })).status).toBe(
      401,
    );
    expect((await t.call("GET", reviews(pr.index), { token: reader.token })).json).toEqual([]);
  });

  it("keeps line comments with their file, line and the diff around it", async () => {
    const pr = await pull();
    const res = await review(pr.index, reader, {
      event: "COMMENT",
      comments: [
        { path: "lines.txt", body: "new seven", new_position: 7 },
        { path: "lines.txt", body: "old seven", old_position: 7 },
        { path: "lines.txt", body: "untouched", new_position: 2 },
      ],
    });
    expect(res.status).toBe(200);
    expect(res.json.comments_count).toBe(3);
    const list = await t.call("GET", `${reviews(pr.index)}/${res.json.id}/comments`, { token: other.token });
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("3");
    expect(list.json.map((c: { body: string }) => c.body)).toEqual(["new seven", "old seven", "untouched"]);
    const [onNew, onOld, outside] = list.json;
    expect(onNew).toMatchObject({
      path: "lines.txt",
      position: 7,
      original_position: 0,
      pull_request_review_id: res.json.id,
      commit_id: pr.head,
      original_commit_id: "",
      resolver: null,
      diff_hunk: "@@ -5,3 +5,3 @@\n 5\n 6\n-7\n+seven",
      html_url: `http://kiln.test/${owner.name}/reviewed/pulls/${pr.index}#issuecomment-${onNew.id}`,
    });
    expect(onNew.user.login).toBe(reader.name);
    expect(onOld).toMatchObject({
      position: 0,
      original_position: 7,
      diff_hunk: "@@ -4,7 +4,7 @@\n 4\n 5\n 6\n-7",
    });
    expect(outside).toMatchObject({ position: 2, diff_hunk: "" });
    // The hunk is the one git shows for the file between the merge base and the head.
    expect(git(repo.gitdir, "diff", `main...${pr.branch}`, "--", "lines.txt")).toContain(
      "@@ -4,7 +4,7 @@\n 4\n 5\n 6\n-7\n+seven\n 8",
    );

    const one = await t.call("GET", `${reviews(pr.index)}/${res.json.id}/comments/${onOld.id}`, {
      token: other.token,
    });
    expect(one.json).toEqual(onOld);
    const elsewhere = await review(pr.index, other, { event: "COMMENT", body: "mine" });
    expect(
      (
        await t.call("GET", `${reviews(pr.index)}/${elsewhere.json.id}/comments/${onOld.id}`, {
          token: other.token,
        })
      ).status,
    ).toBe(404);

    // A reply joins the review; its poster or a writer may delete it, nobody else.
    const reply = await t.call("POST", `${reviews(pr.index)}/${res.json.id}/comments`, {
      token: author.token,
      body: { path: "lines.txt", body: "fixed", new_position: 7 },
    });
    expect(reply.status).toBe(200);
    expect(reply.json).toMatchObject({ pull_request_review_id: res.json.id, diff_hunk: onNew.diff_hunk });
    expect(
      (await t.call("GET", `${reviews(pr.index)}/${res.json.id}`, { token: other.token })).json
        .comments_count,
    ).toBe(4);
    const path = `${reviews(pr.index)}/${res.json.id}/comments/${reply.json.id}`;
    expect((await t.call("DELETE", path, { token: other.token })).status).toBe(403);
    expect((await t.call("DELETE", path, { token: author.token })).status).toBe(204);
    expect((await t.call("GET", path, { token: author.token })).status).toBe(404);
    expect(
      (
        await t.call("DELETE", `${reviews(pr.index)}/${res.json.id}/comments/${onNew.id}`, {
          token: maintainer.token,
        })
      ).status,
    ).toBe(204);
  });

  it("keeps pending reviews to their reviewer until submitted, and submits them as of the head", async () => {
    const pr = await pull();
    await review(pr.index, reader, { event: "COMMENT", body: "public" });
    const draft = await review(pr.index, other, {
      event: "PENDING",
      body: "draft",
      comments: [{ path: "lines.txt", body: "hmm", new_position: 7 }],
    });
    expect(draft.status).toBe(200);
    expect(draft.json).toMatchObject({ state: "PENDING", html_url: "", comments_count: 1 });
    const id = draft.json.id as number;
    for (const token of [reader.token, owner.token, undefined]) {
      const list = await t.call("GET", reviews(pr.index), token ? { token } : {});
      expect(list.json.map((r: { state: string }) => r.state)).toEqual(["COMMENT"]);
      expect(list.headers.get("x-total-count")).toBe("1");
      expect((await t.call("GET", `${reviews(pr.index)}/${id}`, token ? { token } : {})).status).toBe(404);
      expect(
        (await t.call("GET", `${reviews(pr.index)}/${id}/comments`, token ? { token } : {})).status,
      ).toBe(404);
    }
    for (const token of [other.token, admin.token]) {
      const list = await t.call("GET", reviews(pr.index), { token });
      expect(list.headers.get("x-total-count")).toBe("2");
    }
    const comments = await t.call("GET", `${reviews(pr.index)}/${id}/comments`, { token: other.token });
    expect(comments.json[0].html_url).toContain(`/pulls/${pr.index}/files#issuecomment-`);
    expect((await getPull(pr.index)).review_comments).toBe(1);

    const submit = (user: TestUser, body: Record<string, unknown>) =>
      t.call("POST", `${reviews(pr.index)}/${id}`, { token: user.token, body });
    expect((await submit(reader, { event: "COMMENT", body: "x" })).status).toBe(404);
    const stay = await submit(other, { event: "PENDING", body: "still" });
    expect(stay.status).toBe(422);
    expect(stay.json.message).toBe("review stay pending");
    // A comment needs no body when the review has line comments (Forgejo never counts them here).
    const done = await submit(other, { event: "COMMENT" });
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({
      id,
      state: "COMMENT",
      body: "",
      commit_id: pr.head,
      comments_count: 1,
    });
    expect(done.json.html_url).toMatch(/#issuecomment-\d+$/);
    const again = await submit(other, { event: "COMMENT", body: "x" });
    expect(again.status).toBe(422);
    expect(again.json.message).toBe("only a pending review can be submitted");
    expect((await getPull(pr.index)).review_comments).toBe(2);
    const after = await t.call("GET", `${reviews(pr.index)}/${id}/comments`, { token: reader.token });
    expect(after.json[0].html_url).not.toContain("/files#");
  });

  it("pages the list always, with X-Total-Count and Link (Forgejo pages only when asked)", async () => {
    const pr = await pull();
    for (const user of [reader, other, maintainer])
      await review(pr.index, user, { event: "COMMENT", body: "hi" });
    const first = await t.call("GET", `${reviews(pr.index)}?limit=2`, { token: reader.token });
    expect(first.json.map((r: { user: { login: string } }) => r.user.login)).toEqual([
      reader.name,
      other.name,
    ]);
    expect(first.headers.get("x-total-count")).toBe("3");
    expect(first.headers.get("link")).toContain('rel="next"');
    const second = await t.call("GET", `${reviews(pr.index)}?limit=2&page=2`, { token: reader.token });
    expect(second.json.map((r: { user: { login: string } }) => r.user.login)).toEqual([maintainer.name]);
  });

  it("lets only the reviewer or a site admin delete a review, never a request", async () => {
    const pr = await pull();
    const mine = await review(pr.index, reader, {
      event: "COMMENT",
      body: "bye",
      comments: [{ path: "lines.txt", body: "line", new_position: 7 }],
    });
    const theirs = await review(pr.index, other, { event: "COMMENT", body: "stays" });
    expect((await getPull(pr.index)).comments).toBe(2);
    const refused = await t.call("DELETE", `${reviews(pr.index)}/${theirs.json.id}`, { token: owner.token });
    expect(refused.status).toBe(403);
    expect(refused.json.message).toBe("only admin and user itself can delete a review");
    expect(
      (await t.call("DELETE", `${reviews(pr.index)}/${mine.json.id}`, { token: reader.token })).status,
    ).toBe(204);
    expect(
      (await t.call("GET", `${reviews(pr.index)}/${mine.json.id}`, { token: reader.token })).status,
    ).toBe(404);
    expect((await getPull(pr.index)).comments).toBe(1);
    expect(
      (await t.call("DELETE", `${reviews(pr.index)}/${theirs.json.id}`, { token: admin.token })).status,
    ).toBe(204);
    const asked = await t.call("POST", `${repo.path}/pulls/${pr.index}/requested_reviewers`, {
      token: author.token,
      body: { reviewers: [reader.name] },
    });
    const request = await t.call("DELETE", `${reviews(pr.index)}/${asked.json[0].id}`, {
      token: reader.token,
    });
    expect(request.status).toBe(422);
    expect(request.json.message).toBe("review request can not be deleted using this method");
  });

  it("makes writers' decisions official, only the latest of each, and supersedes earlier ones", async () => {
    const pr = await pull();
    const byReader = await review(pr.index, reader, { event: "APPROVED" });
    expect(byReader.json).toMatchObject({ state: "APPROVED", official: false, body: "" });
    const first = await review(pr.index, maintainer, { event: "APPROVED", body: "ok" });
    expect(first.json.official).toBe(true);
    const second = await review(pr.index, maintainer, { event: "REQUEST_CHANGES", body: "wait" });
    expect(second.json).toMatchObject({ official: true, dismissed: false, state: "REQUEST_CHANGES" });
    const earlier = await t.call("GET", `${reviews(pr.index)}/${first.json.id}`, { token: reader.token });
    expect(earlier.json).toMatchObject({ official: false, dismissed: true });
    // A comment neither counts nor supersedes.
    await review(pr.index, maintainer, { event: "COMMENT", body: "note" });
    expect(
      (await t.call("GET", `${reviews(pr.index)}/${second.json.id}`, { token: reader.token })).json,
    ).toMatchObject({
      official: true,
      dismissed: false,
    });
    // Under a rule with an approvals whitelist, the whitelist decides.
    const rule = await t.call("POST", `${repo.path}/branch_protections`, {
      token: owner.token,
      body: {
        rule_name: "main",
        enable_approvals_whitelist: true,
        approvals_whitelist_username: [reader.name],
      },
    });
    expect(rule.status).toBe(201);
    expect((await review(pr.index, reader, { event: "APPROVED" })).json.official).toBe(true);
    expect((await review(pr.index, maintainer, { event: "APPROVED" })).json.official).toBe(false);
    await t.call("DELETE", `${repo.path}/branch_protections/main`, { token: owner.token });
    // requested_reviewers shows each reviewer's latest decision.
    expect(
      (await getPull(pr.index)).requested_reviewers.map((u: { login: string }) => u.login).sort(),
    ).toEqual([reader.name, maintainer.name].sort());
  });

  it("marks reviews stale once the head moves past their commit", async () => {
    const pr = await pull();
    const approval = await review(pr.index, maintainer, { event: "APPROVED" });
    expect(approval.json.stale).toBe(false);
    await commitWithGit(repo.gitdir, pr.branch, { "more.txt": "more\n" }, "More");
    const after = await t.call("GET", `${reviews(pr.index)}/${approval.json.id}`, { token: reader.token });
    expect(after.json).toMatchObject({ stale: true, dismissed: false });
    const fresh = await review(pr.index, maintainer, { event: "APPROVED" });
    expect(fresh.json).toMatchObject({ stale: false, commit_id: git(repo.gitdir, "rev-parse", pr.branch) });
  });

  it("asks users for reviews, shows them in requested_reviewers, notifies them, and takes requests back", async () => {
    const pr = await pull();
    const ask = (by: TestUser, reviewers: string[], method = "POST") =>
      t.call(method, `${repo.path}/pulls/${pr.index}/requested_reviewers`, {
        token: by.token,
        body: { reviewers },
      });
    const res = await ask(author, [maintainer.name, `${reader.name}@example.com`, reader.name]);
    expect(res.status).toBe(201);
    expect(res.json).toHaveLength(2);
    expect(res.json[0]).toMatchObject({
      state: "REQUEST_REVIEW",
      body: "",
      commit_id: "",
      html_url: "",
      official: true,
      team: null,
    });
    expect(res.json.map((r: { user: { login: string } }) => r.user.login)).toEqual([
      maintainer.name,
      reader.name,
    ]);
    expect(res.json[1].official).toBe(false);
    expect((await getPull(pr.index)).requested_reviewers.map((u: { login: string }) => u.login)).toEqual([
      maintainer.name,
      reader.name,
    ]);
    // The owner watches the repository it created (AUTO_WATCH_NEW_REPOS), so it is told as well.
    expect(await notified(repo, pr.index)).toEqual([owner.id, maintainer.id, reader.id].sort());
    expect((await ask(author, [maintainer.name])).json).toEqual([]);

    const cases: [TestUser, string[], number, string][] = [
      [author, ["nobody-here"], 404, "User 'nobody-here' not exist"],
      [
        maintainer,
        [author.name],
        422,
        `poster of pr can't be reviewer [user_id: ${maintainer.id}, repo_id: ${repo.id}]`,
      ],
      [
        outsider,
        [other.name],
        422,
        `Doer can't choose reviewer [user_id: ${outsider.id}, repo_id: ${repo.id}]`,
      ],
    ];
    for (const [by, names, status, message] of cases) {
      const refused = await ask(by, names);
      expect(refused.status, message).toBe(status);
      expect(refused.json.message).toBe(message);
    }
    // Answering a request removes it; the answer stays among the requested reviewers.
    await review(pr.index, maintainer, { event: "APPROVED" });
    const states = (await t.call("GET", reviews(pr.index), { token: reader.token })).json.map(
      (r: { state: string; user: { login: string } }) => `${r.user.login}:${r.state}`,
    );
    expect(states).toEqual([`${reader.name}:REQUEST_REVIEW`, `${maintainer.name}:APPROVED`]);
    // Taking a request back: anyone who may choose reviewers, or the reviewer; others may not.
    const notYours = await ask(outsider, [reader.name], "DELETE");
    expect(notYours.status).toBe(422);
    expect(notYours.json.message).toBe(
      `Doer can't remove reviewer [user_id: ${outsider.id}, repo_id: ${repo.id}]`,
    );
    expect((await ask(author, [reader.name], "DELETE")).status).toBe(204);
    expect((await getPull(pr.index)).requested_reviewers.map((u: { login: string }) => u.login)).toEqual([
      maintainer.name,
    ]);
    expect((await ask(author, [outsider.name])).status).toBe(201);
    expect((await ask(outsider, [outsider.name], "DELETE")).status).toBe(204);
    const timeline = await t.call("GET", `${repo.path}/issues/${pr.index}/timeline`, { token: reader.token });
    expect(timeline.json.filter((e: { type: string }) => e.type === "review_request")).toHaveLength(5);

    // A decided reviewer is not asked again on a closed pull request.
    await t.call("PATCH", `${repo.path}/pulls/${pr.index}`, {
      token: author.token,
      body: { state: "closed" },
    });
    const closed = await ask(author, [maintainer.name]);
    expect(closed.status).toBe(403);
    expect(closed.json.message).toBe("cannot request a re-review on a closed or merged PR");
  });

  it("dismisses decisions for repository admins only, on open pull requests", async () => {
    const pr = await pull();
    const approval = await review(pr.index, maintainer, { event: "APPROVED" });
    const comment = await review(pr.index, reader, { event: "COMMENT", body: "c" });
    const dismiss = (id: number, user: TestUser, body: Record<string, unknown> = { message: "outdated" }) =>
      t.call("POST", `${reviews(pr.index)}/${id}/dismissals`, { token: user.token, body });
    const notAdmin = await dismiss(approval.json.id, maintainer);
    expect(notAdmin.status).toBe(403);
    expect(notAdmin.json.message).toBe("Must be repo admin");
    const notDecision = await dismiss(comment.json.id, owner);
    expect(notDecision.status).toBe(403);
    expect(notDecision.json.message).toBe(
      "not need to dismiss this review because it's type is not Approve or change request",
    );
    expect((await dismiss(424242, owner)).status).toBe(404);
    const done = await dismiss(approval.json.id, owner);
    expect(done.status).toBe(200);
    expect(done.json).toMatchObject({ id: approval.json.id, dismissed: true, state: "APPROVED" });
    const timeline = await t.call("GET", `${repo.path}/issues/${pr.index}/timeline`, { token: reader.token });
    expect(timeline.json.find((e: { type: string }) => e.type === "dismiss_review")?.body).toBe("outdated");
    expect((await getPull(pr.index)).requested_reviewers).toEqual([]);
    const undismiss = (id: number) =>
      t.call("POST", `${reviews(pr.index)}/${id}/undismissals`, { token: owner.token });
    expect((await undismiss(approval.json.id)).json.dismissed).toBe(false);
    // `priors` dismisses the reviewer's other decisions too (a new one dismissed the approval,
    // taken back here).
    const later = await review(pr.index, maintainer, { event: "REQUEST_CHANGES", body: "no" });
    await undismiss(approval.json.id);
    await dismiss(later.json.id, owner, { message: "all", priors: true });
    const get = async (id: number) =>
      (await t.call("GET", `${reviews(pr.index)}/${id}`, { token: reader.token })).json.dismissed;
    expect([await get(approval.json.id), await get(later.json.id), await get(comment.json.id)]).toEqual([
      true,
      true,
      false,
    ]);
    await t.call("PATCH", `${repo.path}/pulls/${pr.index}`, {
      token: author.token,
      body: { state: "closed" },
    });
    const closed = await dismiss(approval.json.id, owner);
    expect(closed.status).toBe(403);
    expect(closed.json.message).toBe("can't dismiss a review associated to a closed or merged PR");
  });

  it("asks teams of an organization for reviews; a member's decision answers the team's request", async () => {
    const orgName = `review-org-${dialect}`;
    expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: orgName } })).status).toBe(
      201,
    );
    const team = await t.call("POST", `/orgs/${orgName}/teams`, {
      token: owner.token,
      body: {
        name: "reviewers",
        includes_all_repositories: true,
        units_map: { "repo.code": "write", "repo.pulls": "write" },
      },
    });
    expect(team.status).toBe(201);
    expect(
      (await t.call("PUT", `/teams/${team.json.id}/members/${maintainer.name}`, { token: owner.token }))
        .status,
    ).toBe(204);
    const created = await t.call("POST", `/orgs/${orgName}/repos`, {
      token: owner.token,
      body: { name: "org-reviewed", auto_init: true, private: true },
    });
    expect(created.status).toBe(201);
    const org = await t.services.users.getByName(orgName);
    const entity = await t.services.repositories.findByName(org, "org-reviewed");
    if (!entity) throw new Error("no repository");
    const orgRepo = {
      name: "org-reviewed",
      path: `/repos/${orgName}/org-reviewed`,
      gitdir: (await t.services.repositories.git(entity)).gitdir,
      id: entity.id,
    };
    await commitWithGit(orgRepo.gitdir, "main", { "lines.txt": TEN }, "Ten lines");
    const pr = await pull(orgRepo, owner);
    const ask = (teams: string[], method = "POST") =>
      t.call(method, `${orgRepo.path}/pulls/${pr.index}/requested_reviewers`, {
        token: owner.token,
        body: { team_reviewers: teams },
      });
    const missing = await ask(["nobody"]);
    expect(missing.status).toBe(404);
    expect(missing.json.message).toBe("Team 'nobody' not exist");
    const res = await ask(["reviewers"]);
    expect(res.status).toBe(201);
    expect(res.json).toHaveLength(1);
    expect(res.json[0]).toMatchObject({ user: null, state: "REQUEST_REVIEW", team: { name: "reviewers" } });
    const json = (await t.call("GET", `${orgRepo.path}/pulls/${pr.index}`, { token: owner.token })).json;
    expect(json.requested_reviewers_teams.map((x: { name: string }) => x.name)).toEqual(["reviewers"]);
    expect(await notified(orgRepo, pr.index)).toEqual([maintainer.id]);
    expect((await ask(["reviewers"])).json).toEqual([]);
    expect((await ask(["reviewers"], "DELETE")).status).toBe(204);
    const gone = (await t.call("GET", `${orgRepo.path}/pulls/${pr.index}`, { token: owner.token })).json;
    expect(gone.requested_reviewers_teams).toEqual([]);
    await ask(["reviewers"]);
    const approval = await t.call("POST", reviews(pr.index, orgRepo), {
      token: maintainer.token,
      body: { event: "APPROVED" },
    });
    expect(approval.json.official).toBe(true);
    const answered = (await t.call("GET", `${orgRepo.path}/pulls/${pr.index}`, { token: owner.token })).json;
    expect(answered.requested_reviewers_teams).toEqual([]);
    expect(answered.requested_reviewers.map((u: { login: string }) => u.login)).toEqual([maintainer.name]);
  });

  it("hides a private repository's reviews from outsiders, anonymous callers and public-only tokens", async () => {
    const secret = await createRepo(t, owner, "secret-reviews", { private: true });
    await t.call("PUT", `${secret.path}/collaborators/${reader.name}`, {
      token: owner.token,
      body: { permission: "read" },
    });
    await commitWithGit(secret.gitdir, "main", { "lines.txt": TEN }, "Ten lines");
    const pr = await pull(secret, owner);
    const made = await t.call("POST", reviews(pr.index, secret), {
      token: reader.token,
      body: {
        event: "COMMENT",
        body: "secret words",
        comments: [{ path: "lines.txt", body: "psst", new_position: 7 }],
      },
    });
    expect(made.status).toBe(200);
    const comment = (
      await t.call("GET", `${reviews(pr.index, secret)}/${made.json.id}/comments`, { token: reader.token })
    ).json[0].id;
    const publicOnly = await t.services.tokens.create(
      await t.services.users.getByName(owner.name),
      "public-only",
      ["public-only", "all"],
    );
    const base = reviews(pr.index, secret);
    for (const path of [
      base,
      `${base}/${made.json.id}`,
      `${base}/${made.json.id}/comments`,
      `${base}/${made.json.id}/comments/${comment}`,
    ]) {
      for (const token of [outsider.token, publicOnly.secret, undefined]) {
        const got = await t.call("GET", path, token ? { token } : {});
        expect(got.status, path).toBe(404);
        expect(got.text).not.toContain("secret words");
      }
      expect((await t.call("GET", path, { token: reader.token })).status, path).toBe(200);
    }
    for (const [method, path, body] of [
      ["POST", base, { event: "COMMENT", body: "x" }],
      ["POST", `${base}/${made.json.id}/dismissals`, { message: "x" }],
      ["DELETE", `${base}/${made.json.id}`, undefined],
      ["POST", `${secret.path}/pulls/${pr.index}/requested_reviewers`, { reviewers: [reader.name] }],
    ] as const) {
      for (const token of [outsider.token, publicOnly.secret]) {
        expect((await t.call(method, path, { token, ...(body ? { body } : {}) })).status, path).toBe(404);
      }
    }
  });
});
