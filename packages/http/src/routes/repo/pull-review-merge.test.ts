import { execFileSync } from "node:child_process";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const git = (gitdir: string, ...args: string[]) =>
  execFileSync("git", ["--git-dir", gitdir, ...args], { encoding: "utf8" }).trim();

const NOT_ENOUGH = "not allowed to merge [reason: Does not have enough approvals]";

/** Reviews deciding merges under the base branch's protection rule, dismissals, and scheduled merges. */
describe.each(DIALECTS)("reviews and merging on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let author: TestUser;
  let maintainer: TestUser;
  let reader: TestUser;
  let repo: TestRepo;
  let n = 0;

  /** A base branch of its own, protected by `rule`, and a pull request into it by the author. */
  async function protectedPull(rule: Record<string, unknown>) {
    n++;
    const base = `release-${n}`;
    git(repo.gitdir, "branch", base, "main");
    const protect = await t.call("POST", `${repo.path}/branch_protections`, {
      token: owner.token,
      body: { rule_name: base, ...rule },
    });
    expect(protect.status).toBe(201);
    const branch = `change-${n}`;
    await commitWithGit(repo.gitdir, branch, { [`change-${n}.txt`]: "change\n" }, `Change ${n}`);
    const res = await t.call("POST", `${repo.path}/pulls`, {
      token: author.token,
      body: { head: branch, base, title: `Change ${n}` },
    });
    expect(res.status).toBe(201);
    return { index: res.json.number as number, base, branch };
  }
  const review = (index: number, user: TestUser, event: string, body = "") =>
    t.call("POST", `${repo.path}/pulls/${index}/reviews`, { token: user.token, body: { event, body } });
  const merge = (index: number, body: Record<string, unknown> = { Do: "merge" }) =>
    t.call("POST", `${repo.path}/pulls/${index}/merge`, { token: owner.token, body });
  const dismiss = (index: number, id: number) =>
    t.call("POST", `${repo.path}/pulls/${index}/reviews/${id}/dismissals`, {
      token: owner.token,
      body: { message: "dismissed" },
    });
  const getPull = async (index: number) =>
    (await t.call("GET", `${repo.path}/pulls/${index}`, { token: reader.token })).json;

  beforeAll(async () => {
    t = await openTestApp(dialect, {}, { listen: true });
    owner = await t.user();
    author = await t.user();
    maintainer = await t.user();
    reader = await t.user();
    repo = await createRepo(t, owner, "decided");
    for (const [user, permission] of [
      [author, "write"],
      [maintainer, "write"],
      [reader, "read"],
    ] as const) {
      await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: owner.token,
        body: { permission },
      });
    }
  });
  afterAll(() => t?.close());

  it("refuses a merge without enough official approvals and merges once there are", async () => {
    const pr = await protectedPull({ required_approvals: 1 });
    const before = await merge(pr.index);
    expect(before.status).toBe(422);
    expect(before.json.message).toBe(NOT_ENOUGH);
    // A reader's approval is not official and does not count.
    expect((await review(pr.index, reader, "APPROVED")).json.official).toBe(false);
    expect((await merge(pr.index)).json.message).toBe(NOT_ENOUGH);
    expect((await review(pr.index, maintainer, "APPROVED")).json.official).toBe(true);
    expect((await merge(pr.index)).status).toBe(200);
    expect(git(repo.gitdir, "merge-base", "--is-ancestor", pr.branch, pr.base)).toBe("");
  });

  it("stops counting an approval once it is dismissed", async () => {
    const pr = await protectedPull({ required_approvals: 1 });
    const approval = await review(pr.index, maintainer, "APPROVED");
    expect((await dismiss(pr.index, approval.json.id)).json.dismissed).toBe(true);
    expect((await merge(pr.index)).json.message).toBe(NOT_ENOUGH);
  });

  it("blocks on a request for changes until it is dismissed (block_on_rejected_reviews)", async () => {
    const pr = await protectedPull({ block_on_rejected_reviews: true });
    const rejection = await review(pr.index, maintainer, "REQUEST_CHANGES", "not like this");
    const refused = await merge(pr.index);
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe("not allowed to merge [reason: There are requested changes]");
    expect((await dismiss(pr.index, rejection.json.id)).status).toBe(200);
    expect((await merge(pr.index)).status).toBe(200);
  });

  it("blocks while an official review request is open (block_on_official_review_requests)", async () => {
    const pr = await protectedPull({ block_on_official_review_requests: true });
    const asked = await t.call("POST", `${repo.path}/pulls/${pr.index}/requested_reviewers`, {
      token: author.token,
      body: { reviewers: [maintainer.name, reader.name] },
    });
    expect(asked.json.map((r: { official: boolean }) => r.official)).toEqual([true, false]);
    const refused = await merge(pr.index);
    expect(refused.json.message).toBe("not allowed to merge [reason: There are official review requests]");
    // The reader's request is not official and does not block; answering the official one unblocks.
    await review(pr.index, maintainer, "COMMENT", "fine");
    expect((await getPull(pr.index)).requested_reviewers.map((u: { login: string }) => u.login)).toEqual([
      reader.name,
    ]);
    expect((await merge(pr.index)).status).toBe(200);
  });

  it("dismisses approvals when the head moves under dismiss_stale_approvals, and the merge is refused", async () => {
    const pr = await protectedPull({ required_approvals: 1, dismiss_stale_approvals: true });
    const approval = await review(pr.index, maintainer, "APPROVED");
    await commitWithGit(repo.gitdir, pr.branch, { "later.txt": "later\n" }, "Later");
    const after = await t.call("GET", `${repo.path}/pulls/${pr.index}/reviews/${approval.json.id}`, {
      token: reader.token,
    });
    expect(after.json).toMatchObject({ dismissed: true, stale: true });
    const refused = await merge(pr.index);
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe(NOT_ENOUGH);
    const timeline = await t.call("GET", `${repo.path}/issues/${pr.index}/timeline`, { token: reader.token });
    expect(timeline.json.find((e: { type: string }) => e.type === "dismiss_review")?.body).toBe(
      "New commits pushed, approval review dismissed automatically according to repository settings",
    );
  });

  it("keeps approvals when the head only takes the base in: the pull request's content did not change", async () => {
    const pr = await protectedPull({ required_approvals: 1, dismiss_stale_approvals: true });
    const approval = await review(pr.index, maintainer, "APPROVED");
    await commitWithGit(repo.gitdir, pr.base, { "elsewhere.txt": "base moves\n" }, "Base moves");
    const update = await t.call("POST", `${repo.path}/pulls/${pr.index}/update`, { token: author.token });
    expect(update.status).toBe(200);
    const after = await t.call("GET", `${repo.path}/pulls/${pr.index}/reviews/${approval.json.id}`, {
      token: reader.token,
    });
    expect(after.json).toMatchObject({ dismissed: false, stale: false });
    expect((await merge(pr.index)).status).toBe(200);
  });

  it("runs a scheduled merge once an official approval arrives", async () => {
    const pr = await protectedPull({ required_approvals: 1 });
    expect((await merge(pr.index, { Do: "squash", merge_when_checks_succeed: true })).status).toBe(201);
    expect((await getPull(pr.index)).merged).toBe(false);
    // A comment or a non-official approval changes nothing.
    await review(pr.index, reader, "APPROVED");
    expect((await getPull(pr.index)).merged).toBe(false);
    const approval = await review(pr.index, maintainer, "APPROVED");
    expect(approval.status).toBe(200);
    const json = await getPull(pr.index);
    expect(json).toMatchObject({ merged: true, state: "closed" });
    expect(json.merged_by.login).toBe(owner.name);
    expect(git(repo.gitdir, "log", "-1", "--format=%s", pr.base)).toBe(`Change ${n} (#${pr.index})`);
    expect(
      (await t.call("GET", `${repo.path}/pulls/${pr.index}/merge`, { token: reader.token })).status,
    ).toBe(204);
  });

  it("runs a scheduled merge once the blocking request for changes is dismissed", async () => {
    const pr = await protectedPull({ block_on_rejected_reviews: true });
    const rejection = await review(pr.index, maintainer, "REQUEST_CHANGES", "no");
    expect((await merge(pr.index, { Do: "merge", merge_when_checks_succeed: true })).status).toBe(201);
    expect((await getPull(pr.index)).merged).toBe(false);
    expect((await dismiss(pr.index, rejection.json.id)).status).toBe(200);
    expect((await getPull(pr.index)).merged).toBe(true);
    expect(git(repo.gitdir, "log", "-1", "--format=%s", pr.base)).toBe(
      `Merge pull request 'Change ${n}' (#${pr.index}) from ${pr.branch} into ${pr.base}`,
    );
  });
});
