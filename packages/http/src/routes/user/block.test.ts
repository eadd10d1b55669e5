import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const BLOCKED = "user is blocked by the poster or repository owner";

describe.each(DIALECTS)("blocking users on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let pest: TestUser;
  let friend: TestUser;
  let repo: TestRepo;
  let issueIndex: number;
  let commentId: number;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    pest = await t.user();
    friend = await t.user();
    repo = await createRepo(t, owner, "garden");
    const issue = await t.call("POST", `${repo.path}/issues`, { token: friend.token, body: { title: "hi" } });
    issueIndex = issue.json.number;
    const comment = await t.call("POST", `${repo.path}/issues/${issueIndex}/comments`, {
      token: friend.token,
      body: { body: "first" },
    });
    commentId = comment.json.id;
    // What the block undoes: follows both ways, the pest's watch and collaboration.
    await t.call("PUT", `/user/following/${owner.name}`, { token: pest.token });
    await t.call("PUT", `/user/following/${pest.name}`, { token: owner.token });
    await t.call("PUT", `${repo.path}/subscription`, { token: pest.token });
    await t.call("PUT", `${repo.path}/collaborators/${pest.name}`, {
      token: owner.token,
      body: { permission: "write" },
    });
  });
  afterAll(() => t?.close());

  it("blocks: follows both ways, watches and collaborations go; the list shows the block", async () => {
    expect((await t.call("GET", `/users/${owner.name}`)).json.followers_count).toBe(1);
    const put = await t.call("PUT", `/user/block/${pest.name}`, { token: owner.token });
    expect(put.status).toBe(204);
    expect((await t.call("GET", `/user/following/${owner.name}`, { token: pest.token })).status).toBe(404);
    expect((await t.call("GET", `/user/following/${pest.name}`, { token: owner.token })).status).toBe(404);
    const shown = await t.call("GET", `/users/${owner.name}`);
    expect(shown.json.followers_count).toBe(0);
    expect(shown.json.following_count).toBe(0);
    expect((await t.call("GET", `${repo.path}/subscription`, { token: pest.token })).status).toBe(404);
    expect((await t.call("GET", repo.path)).json.watchers_count).toBe(1);
    expect(
      (await t.call("GET", `${repo.path}/collaborators/${pest.name}`, { token: owner.token })).status,
    ).toBe(404);

    const list = await t.call("GET", "/user/list_blocked", { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.headers.get("X-Total-Count")).toBe("1");
    expect(list.json).toEqual([{ block_id: pest.id, created_at: expect.any(String) }]);
    // Blocking twice, or oneself, changes nothing (Forgejo's BlockUser answers 204).
    expect((await t.call("PUT", `/user/block/${pest.name}`, { token: owner.token })).status).toBe(204);
    expect((await t.call("PUT", `/user/block/${owner.name}`, { token: owner.token })).status).toBe(204);
    expect((await t.call("GET", "/user/list_blocked", { token: owner.token })).json).toHaveLength(1);
    expect((await t.call("PUT", "/user/block/nobody-at-all", { token: owner.token })).status).toBe(404);
    expect((await t.call("PUT", `/user/block/${pest.name}`)).status).toBe(401);
  });

  it("refuses the blocked user starring, watching, following, issues, pulls, comments and reactions", async () => {
    const refused = async (res: Promise<{ status: number; json: { message?: string } }>) => {
      const answer = await res;
      expect(answer.status).toBe(403);
      expect(answer.json.message).toBe(BLOCKED);
    };
    const as = { token: pest.token };
    await refused(t.call("PUT", `/user/starred/${owner.name}/${repo.name}`, as));
    await refused(t.call("PUT", `${repo.path}/subscription`, as));
    await refused(t.call("PUT", `/user/following/${owner.name}`, as));
    // Nor may the blocker follow the one they block.
    await refused(t.call("PUT", `/user/following/${pest.name}`, { token: owner.token }));
    await refused(t.call("POST", `${repo.path}/issues`, { ...as, body: { title: "spam" } }));
    await refused(
      t.call("POST", `${repo.path}/issues/${issueIndex}/comments`, { ...as, body: { body: "spam" } }),
    );
    await refused(
      t.call("POST", `${repo.path}/issues/${issueIndex}/reactions`, { ...as, body: { content: "+1" } }),
    );
    await refused(
      t.call("POST", `${repo.path}/issues/comments/${commentId}/reactions`, {
        ...as,
        body: { content: "+1" },
      }),
    );
    await refused(
      t.call("POST", `${repo.path}/pulls`, { ...as, body: { title: "x", head: "other", base: "main" } }),
    );
    // Nor fork, be made a collaborator, or hand the blocker a repository.
    await refused(t.call("POST", `${repo.path}/forks`, { ...as, body: {} }));
    await refused(
      t.call("PUT", `${repo.path}/collaborators/${pest.name}`, {
        token: owner.token,
        body: { permission: "read" },
      }),
    );
    const pestRepo = await t.call("POST", "/user/repos", { ...as, body: { name: "gift" } });
    expect(pestRepo.status).toBe(201);
    await refused(
      t.call("POST", `/repos/${pest.name}/gift/transfer`, { ...as, body: { new_owner: owner.name } }),
    );
    expect((await t.call("GET", repo.path)).json.stars_count).toBe(0);
    // Others are not affected; undoing is always allowed.
    expect(
      (await t.call("PUT", `/user/starred/${owner.name}/${repo.name}`, { token: friend.token })).status,
    ).toBe(204);
    expect((await t.call("DELETE", `/user/starred/${owner.name}/${repo.name}`, as)).status).toBe(204);
  });

  it("an issue's poster blocks too: the blocked user may not comment on or react to their issue", async () => {
    const other = await createRepo(t, friend, "commons");
    const issue = await t.call("POST", `${other.path}/issues`, {
      token: owner.token,
      body: { title: "mine" },
    });
    const at = `${other.path}/issues/${issue.json.number}`;
    const comment = await t.call("POST", `${at}/comments`, { token: pest.token, body: { body: "no" } });
    expect(comment.status).toBe(403);
    expect(comment.json.message).toBe(BLOCKED);
    const react = await t.call("POST", `${at}/reactions`, { token: pest.token, body: { content: "+1" } });
    expect(react.status).toBe(403);
    // On someone else's issue in that repository the blocked user may still speak.
    const open = await t.call("POST", `${other.path}/issues`, { token: pest.token, body: { title: "ok" } });
    expect(open.status).toBe(201);
  });

  it("nobody is assigned by a user they block (Forgejo's UserCanBeAssigned)", async () => {
    const boss = await t.user();
    const helper = await t.user();
    const shop = await createRepo(t, boss, "shop");
    await t.call("PUT", `${shop.path}/collaborators/${helper.name}`, {
      token: boss.token,
      body: { permission: "write" },
    });
    expect((await t.call("PUT", `/user/block/${boss.name}`, { token: helper.token })).status).toBe(204);
    const create = await t.call("POST", `${shop.path}/issues`, {
      token: boss.token,
      body: { title: "task", assignees: [helper.name] },
    });
    expect(create.status).toBe(403);
    expect(create.json.message).toBe(BLOCKED);
    const open = await t.call("POST", `${shop.path}/issues`, { token: boss.token, body: { title: "task" } });
    expect(open.status).toBe(201);
    const assign = await t.call("PATCH", `${shop.path}/issues/${open.json.number}`, {
      token: boss.token,
      body: { assignees: [helper.name] },
    });
    expect(assign.status).toBe(403);
    expect((await t.call("GET", `${shop.path}/issues/${open.json.number}`)).json.assignees).toBeNull();
  });

  it("unblocks, after which the user may act again", async () => {
    expect((await t.call("PUT", `/user/unblock/${pest.name}`, { token: owner.token })).status).toBe(204);
    expect((await t.call("PUT", `/user/unblock/${pest.name}`, { token: owner.token })).status).toBe(204);
    expect((await t.call("GET", "/user/list_blocked", { token: owner.token })).json).toEqual([]);
    expect(
      (await t.call("PUT", `/user/starred/${owner.name}/${repo.name}`, { token: pest.token })).status,
    ).toBe(204);
    expect((await t.call("PUT", `/user/following/${owner.name}`, { token: pest.token })).status).toBe(204);
  });

  it("an organization's owners block for it; members who are not owners may not", async () => {
    const org = `garden-org-${owner.id}`;
    expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: org } })).status).toBe(201);
    const made = await t.call("POST", `/orgs/${org}/repos`, { token: owner.token, body: { name: "plot" } });
    expect(made.status).toBe(201);
    expect((await t.call("PUT", `/orgs/${org}/block/${pest.name}`, { token: friend.token })).status).toBe(
      403,
    );
    expect((await t.call("PUT", `/orgs/${org}/block/${pest.name}`, { token: owner.token })).status).toBe(204);
    const list = await t.call("GET", `/orgs/${org}/list_blocked`, { token: owner.token });
    expect(list.status).toBe(200);
    expect(list.json).toEqual([{ block_id: pest.id, created_at: expect.any(String) }]);
    expect((await t.call("GET", `/orgs/${org}/list_blocked`, { token: friend.token })).status).toBe(403);
    const star = await t.call("PUT", `/user/starred/${org}/plot`, { token: pest.token });
    expect(star.status).toBe(403);
    expect(star.json.message).toBe(BLOCKED);
    const issue = await t.call("POST", `/repos/${org}/plot/issues`, {
      token: pest.token,
      body: { title: "x" },
    });
    expect(issue.status).toBe(403);
    expect((await t.call("PUT", `/orgs/${org}/unblock/${pest.name}`, { token: owner.token })).status).toBe(
      204,
    );
    expect((await t.call("PUT", `/user/starred/${org}/plot`, { token: pest.token })).status).toBe(204);
  });
});
