import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { b64, createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

interface Activity {
  id: number;
  user_id: number;
  op_type: string;
  act_user_id: number;
  act_user: { login: string };
  repo_id: number;
  repo: { full_name: string };
  comment_id: number;
  comment: { body: string } | null;
  ref_name: string;
  is_private: boolean;
  content: string;
}

const pad = (n: number) => String(n).padStart(2, "0");
/** Today in the server's time zone (the `date` filter's). */
function today(): string {
  const d = new Date();
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}`;
}

/**
 * Activity feeds as a Forgejo client reads them: entries for pushes, issues, pull requests,
 * comments and releases, each user's and organization's feed, the filters, and the entries of
 * private repositories hidden from whoever may not read them.
 */
describe.each(DIALECTS)("activity feeds on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let carol: TestUser;
  let dave: TestUser;
  let admin: TestUser;
  let pub: TestRepo;
  let priv: TestRepo;
  let publicOnly: string;
  const org = `feed-org-${Date.now().toString(36)}`;

  const ok = async (method: string, path: string, body: unknown, token: string) => {
    const res = await t.call(method, path, { token, body });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.json;
  };
  const feed = async (path: string, token?: string): Promise<Activity[]> => {
    const res = await t.call("GET", path, token ? { token } : {});
    expect(res.status, `${path}: ${res.text}`).toBe(200);
    return res.json;
  };
  const ops = (list: readonly Activity[]) => list.map((a) => a.op_type);

  beforeAll(async () => {
    t = await openTestApp(dialect);
    [alice, bob, carol, dave] = [await t.user(), await t.user(), await t.user(), await t.user()];
    admin = await t.user({ admin: true });
    publicOnly = (
      await t.services.tokens.create(await t.services.users.getByName(bob.name), "po", ["public-only", "all"])
    ).secret;
    pub = await createRepo(t, alice, "feed-pub");
    priv = await createRepo(t, alice, "feed-priv", { private: true });
    for (const repo of [pub, priv])
      await ok("PUT", `${repo.path}/collaborators/${bob.name}`, { permission: "write" }, alice.token);
    // Dave watches the public repository (Forgejo's watch mode 1).
    await t.services.ctx.db
      .insertInto("watch")
      .values({ userId: dave.id, repoId: pub.id, mode: 1 })
      .execute();

    const issue = await ok("POST", `${pub.path}/issues`, { title: "Bug" }, bob.token);
    await ok("POST", `${pub.path}/issues/${issue.number}/comments`, { body: "Seen it too" }, bob.token);
    await ok("PATCH", `${pub.path}/issues/${issue.number}`, { state: "closed" }, alice.token);
    await ok(
      "POST",
      `${pub.path}/contents/topic.txt`,
      { content: b64("topic\n"), new_branch: "topic" },
      bob.token,
    );
    const pr = await ok(
      "POST",
      `${pub.path}/pulls`,
      { head: "topic", base: "main", title: "Topic" },
      bob.token,
    );
    await ok("POST", `${pub.path}/pulls/${pr.number}/merge`, { Do: "merge" }, alice.token);
    await ok("POST", `${pub.path}/releases`, { tag_name: "v1", name: "First", draft: false }, alice.token);
    await ok("POST", `${priv.path}/contents/secret.txt`, { content: b64("secret\n") }, bob.token);
    await ok("POST", `${priv.path}/issues`, { title: "Hidden" }, bob.token);
  });
  afterAll(() => t?.close());

  it("lists a repository's entries newest first, once each, in Forgejo's Activity shape", async () => {
    const entries = await feed(`${pub.path}/activities/feeds`);
    expect(ops(entries)).toEqual([
      "publish_release",
      "push_tag",
      "merge_pull_request",
      "commit_repo",
      "create_pull_request",
      "commit_repo",
      "commit_repo",
      "close_issue",
      "comment_issue",
      "create_issue",
      "create_repo",
    ]);
    for (const entry of entries) expect(entry.user_id).toBe(entry.act_user_id);
    const byOp = (op: string) => entries.find((a) => a.op_type === op) as Activity;
    expect(byOp("create_issue")).toMatchObject({
      act_user: { login: bob.name },
      act_user_id: bob.id,
      repo_id: pub.id,
      repo: { full_name: `${alice.name}/feed-pub` },
      content: "1|Bug",
      is_private: false,
      comment: null,
      comment_id: 0,
    });
    expect(byOp("comment_issue")).toMatchObject({
      content: "1|Seen it too",
      comment: { body: "Seen it too" },
    });
    expect(byOp("comment_issue").comment_id).toBeGreaterThan(0);
    expect(byOp("close_issue")).toMatchObject({ act_user: { login: alice.name }, content: "1|" });
    expect(byOp("merge_pull_request")).toMatchObject({ content: "2|Topic", act_user: { login: alice.name } });
    expect(byOp("publish_release")).toMatchObject({ content: "First", ref_name: "v1" });
    expect(entries[1]).toMatchObject({ ref_name: "refs/tags/v1" });
    expect(entries[3]).toMatchObject({ op_type: "commit_repo", ref_name: "refs/heads/main" });
    // Forgejo's PushCommits JSON: the merge brought the merge commit and the topic's commit.
    const pushed = JSON.parse((entries[3] as Activity).content);
    expect(pushed).toMatchObject({
      Len: 2,
      CompareURL: expect.stringMatching(`^${alice.name}/feed-pub/compare/`),
    });
    expect(pushed.Commits.map((commit: { Message: string }) => commit.Message.trim())).toEqual([
      expect.stringContaining("Merge pull request"),
      "Add topic.txt",
    ]);
    expect(pushed.HeadCommit.Sha1).toBe(pushed.Commits[0].Sha1);
    expect(entries.slice(5, 7).map((a) => a.ref_name)).toEqual(["refs/heads/topic", "refs/heads/topic"]);
  });

  it("fans entries out to watchers' feeds, and only-performed-by keeps the user's own", async () => {
    const daves = await feed(`/users/${dave.name}/activities/feeds`, dave.token);
    expect(ops(daves)).toContain("create_issue");
    expect(daves.every((a) => a.user_id === dave.id)).toBe(true);
    expect(daves.every((a) => a.repo_id === pub.id)).toBe(true);
    expect(await feed(`/users/${dave.name}/activities/feeds?only-performed-by=true`, dave.token)).toEqual([]);
    const bobs = await feed(`/users/${bob.name}/activities/feeds?only-performed-by=true`, bob.token);
    expect(bobs.length).toBeGreaterThan(0);
    expect(bobs.every((a) => a.act_user_id === bob.id)).toBe(true);
  });

  it("hides private repositories' entries from anonymous callers, outsiders and public-only tokens", async () => {
    const privateOps = (list: readonly Activity[]) => list.filter((a) => a.repo_id === priv.id);
    const mine = await feed(`/users/${bob.name}/activities/feeds`, bob.token);
    expect(ops(privateOps(mine))).toEqual(["create_issue", "commit_repo"]);
    expect(privateOps(mine).every((a) => a.is_private)).toBe(true);
    expect(privateOps(await feed(`/users/${bob.name}/activities/feeds`, admin.token))).toHaveLength(2);
    for (const token of [undefined, carol.token, publicOnly, alice.token]) {
      const seen = await feed(`/users/${bob.name}/activities/feeds`, token);
      expect(privateOps(seen), token ?? "anonymous").toEqual([]);
      expect(ops(seen)).toContain("create_issue");
    }
    for (const token of [undefined, carol.token, publicOnly]) {
      const res = await t.call("GET", `${priv.path}/activities/feeds`, token ? { token } : {});
      expect(res.status, token ?? "anonymous").toBe(404);
    }
    expect(ops(await feed(`${priv.path}/activities/feeds`, bob.token))).toEqual([
      "create_issue",
      "commit_repo",
      "create_repo",
    ]);
  });

  it("filters by day and pages", async () => {
    const all = await feed(`${pub.path}/activities/feeds`);
    expect(await feed(`${pub.path}/activities/feeds?date=${today()}`)).toEqual(all);
    expect(await feed(`${pub.path}/activities/feeds?date=2000-01-01`)).toEqual([]);
    expect((await t.call("GET", `${pub.path}/activities/feeds?date=yesterday`)).status).toBe(422);
    const page = await t.call("GET", `${pub.path}/activities/feeds?page=2&limit=3`);
    expect(page.status).toBe(200);
    expect(page.headers.get("x-total-count")).toBe(String(all.length));
    expect(page.json.map((a: Activity) => a.id)).toEqual(all.slice(3, 6).map((a) => a.id));
  });

  it("keeps a user's activity to themselves when they hide it", async () => {
    await ok("PATCH", "/user/settings", { hide_activity: true }, bob.token);
    try {
      for (const token of [undefined, carol.token, alice.token])
        expect(await feed(`/users/${bob.name}/activities/feeds`, token), token ?? "anonymous").toEqual([]);
      expect((await feed(`/users/${bob.name}/activities/feeds`, bob.token)).length).toBeGreaterThan(0);
      expect((await feed(`/users/${bob.name}/activities/feeds`, admin.token)).length).toBeGreaterThan(0);
      // Nor do their entries show in others' feeds to anyone but themselves.
      expect(ops(await feed(`/users/${dave.name}/activities/feeds`, dave.token))).not.toContain(
        "create_issue",
      );
    } finally {
      await ok("PATCH", "/user/settings", { hide_activity: false }, bob.token);
    }
  });

  it("shows an organization's feed, its private repositories' entries to members only", async () => {
    await ok("POST", "/orgs", { username: org }, alice.token);
    const open = await ok("POST", `/orgs/${org}/repos`, { name: "open", auto_init: true }, alice.token);
    const closed = await ok("POST", `/orgs/${org}/repos`, { name: "closed", private: true }, alice.token);
    await ok("POST", `/repos/${org}/open/issues`, { title: "Org issue" }, alice.token);
    await ok("POST", `/repos/${org}/closed/issues`, { title: "Org secret" }, alice.token);
    const members = await feed(`/orgs/${org}/activities/feeds`, alice.token);
    expect(members.every((a) => a.user_id !== alice.id)).toBe(true);
    expect(members.map((a) => [a.op_type, a.repo_id])).toEqual([
      ["create_issue", closed.id],
      ["create_issue", open.id],
      ["create_repo", closed.id],
      ["create_repo", open.id],
    ]);
    for (const token of [undefined, carol.token]) {
      const seen = await feed(`/orgs/${org}/activities/feeds`, token);
      expect(
        seen.map((a) => a.repo_id).filter((id) => id === closed.id),
        token ?? "anonymous",
      ).toEqual([]);
      expect(ops(seen)).toContain("create_issue");
    }
    const teams = await t.call("GET", `/orgs/${org}/teams`, { token: alice.token });
    const owners = teams.json[0].id as number;
    expect(ops(await feed(`/teams/${owners}/activities/feeds`, alice.token))).toContain("create_issue");
    expect((await t.call("GET", `/teams/${owners}/activities/feeds`, { token: carol.token })).status).toBe(
      404,
    );
  });
});
