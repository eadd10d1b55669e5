import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const BLOCKED = "user is blocked by the poster or repository owner";

/** A block keeps the blocked user from drawing the blocker into anything: collaboration, teams, notifications. */
describe.each(DIALECTS)("what a block keeps from the blocker on %s", (dialect) => {
  let t: TestApp;
  let bob: TestUser;
  let eve: TestUser;
  let carol: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect, { repository: { maxCreationLimit: 50 } });
    bob = await t.user();
    eve = await t.user();
    carol = await t.user();
    expect((await t.call("PUT", `/user/block/${eve.name}`, { token: bob.token })).status).toBe(204);
  });
  afterAll(() => t?.close());

  const threads = async (user: TestUser) => {
    const res = await t.call("GET", "/notifications?all=true&limit=50", { token: user.token });
    expect(res.status).toBe(200);
    return res.json as { subject: { url: string; type: string }; repository: { full_name: string } }[];
  };

  it("refuses the blocked user adding the blocker as a collaborator, while others can be added", async () => {
    const repo = await createRepo(t, eve, "workshop");
    const add = await t.call("PUT", `${repo.path}/collaborators/${bob.name}`, {
      token: eve.token,
      body: { permission: "write" },
    });
    expect(add.status).toBe(403);
    expect(add.json.message).toBe(BLOCKED);
    expect((await t.call("GET", `${repo.path}/collaborators/${bob.name}`, { token: eve.token })).status).toBe(
      404,
    );
    expect(
      (await t.call("PUT", `${repo.path}/collaborators/${carol.name}`, { token: eve.token, body: {} }))
        .status,
    ).toBe(204);
    // The other way too: the blocker may not add the user they block.
    const mine = await createRepo(t, bob, "den");
    const back = await t.call("PUT", `${mine.path}/collaborators/${eve.name}`, {
      token: bob.token,
      body: {},
    });
    expect(back.status).toBe(403);
    expect(back.json.message).toBe(BLOCKED);
  });

  it("refuses the blocked user adding the blocker to a team or to a repository of their organization", async () => {
    const org = `eve-org-${eve.id}`;
    expect((await t.call("POST", "/orgs", { token: eve.token, body: { username: org } })).status).toBe(201);
    const team = await t.call("POST", `/orgs/${org}/teams`, {
      token: eve.token,
      body: { name: "crew", permission: "write", units: ["repo.code"] },
    });
    expect(team.status).toBe(201);
    const join = await t.call("PUT", `/teams/${team.json.id}/members/${bob.name}`, { token: eve.token });
    expect(join.status).toBe(403);
    expect(join.json.message).toBe(BLOCKED);
    expect(
      (await t.call("GET", `/teams/${team.json.id}/members/${bob.name}`, { token: eve.token })).status,
    ).toBe(404);
    expect((await t.call("GET", `/orgs/${org}/members/${bob.name}`, { token: eve.token })).status).toBe(404);
    expect(
      (await t.call("PUT", `/teams/${team.json.id}/members/${carol.name}`, { token: eve.token })).status,
    ).toBe(204);
    expect(
      (await t.call("POST", `/orgs/${org}/repos`, { token: eve.token, body: { name: "shared" } })).status,
    ).toBe(201);
    const collab = await t.call("PUT", `/repos/${org}/shared/collaborators/${bob.name}`, {
      token: eve.token,
      body: {},
    });
    expect(collab.status).toBe(403);
    expect(collab.json.message).toBe(BLOCKED);
  });

  it("keeps whom an organization blocks out of its teams", async () => {
    const org = `carol-org-${carol.id}`;
    expect((await t.call("POST", "/orgs", { token: carol.token, body: { username: org } })).status).toBe(201);
    const team = await t.call("POST", `/orgs/${org}/teams`, {
      token: carol.token,
      body: { name: "crew", permission: "read", units: ["repo.code"] },
    });
    expect((await t.call("PUT", `/orgs/${org}/block/${eve.name}`, { token: carol.token })).status).toBe(204);
    const join = await t.call("PUT", `/teams/${team.json.id}/members/${eve.name}`, { token: carol.token });
    expect(join.status).toBe(403);
    expect(join.json.message).toBe(BLOCKED);
  });

  it("drops notifications from the blocked user: mentions, watches, review requests and transfers", async () => {
    const repo = await createRepo(t, eve, "stage");
    const before = await threads(bob);
    // A mention in an issue, and in a comment.
    const issue = await t.call("POST", `${repo.path}/issues`, {
      token: eve.token,
      body: { title: "look", body: `hey @${bob.name} and @${carol.name}` },
    });
    expect(issue.status).toBe(201);
    const url = `http://kiln.test/api/v1${repo.path}/issues/${issue.json.number}`;
    const quiet = await createRepo(t, eve, "quiet");
    const other = await t.call("POST", `${quiet.path}/issues`, {
      token: eve.token,
      body: { title: "plain" },
    });
    const mention = await t.call("POST", `${quiet.path}/issues/${other.json.number}/comments`, {
      token: eve.token,
      body: { body: `@${bob.name} @${carol.name} see this` },
    });
    expect(mention.status).toBe(201);
    const otherUrl = `http://kiln.test/api/v1${quiet.path}/issues/${other.json.number}`;
    expect((await threads(carol)).map((th) => th.subject.url)).toEqual(
      expect.arrayContaining([url, otherUrl]),
    );

    // A repository bob watches: eve's issue there tells the other watchers, not bob.
    const commons = await createRepo(t, carol, "commons");
    expect((await t.call("PUT", `${commons.path}/subscription`, { token: bob.token })).status).toBe(200);
    const watched = await t.call("POST", `${commons.path}/issues`, {
      token: eve.token,
      body: { title: "hi" },
    });
    expect(watched.status).toBe(201);
    const watchedUrl = `http://kiln.test/api/v1${commons.path}/issues/${watched.json.number}`;
    expect((await threads(carol)).map((th) => th.subject.url)).toContain(watchedUrl);

    // A review request from eve on her pull request.
    await commitWithGit(repo.gitdir, "feature", { "f.txt": "f\n" }, "feature");
    const pull = await t.call("POST", `${repo.path}/pulls`, {
      token: eve.token,
      body: { title: "change", head: "feature", base: "main" },
    });
    expect(pull.status).toBe(201);
    const asked = await t.call("POST", `${repo.path}/pulls/${pull.json.number}/requested_reviewers`, {
      token: eve.token,
      body: { reviewers: [bob.name, carol.name] },
    });
    expect(asked.status).toBe(201);
    const pullUrl = `http://kiln.test/api/v1${repo.path}/issues/${pull.json.number}`;
    expect((await threads(carol)).map((th) => th.subject.url)).toContain(pullUrl);

    // A transfer offered to an organization bob owns.
    const bobOrg = `bob-org-${bob.id}`;
    expect((await t.call("POST", "/orgs", { token: bob.token, body: { username: bobOrg } })).status).toBe(
      201,
    );
    const gift = await createRepo(t, eve, "gift");
    const transfer = await t.call("POST", `${gift.path}/transfer`, {
      token: eve.token,
      body: { new_owner: bobOrg },
    });
    expect(transfer.status).toBe(201);

    expect(await threads(bob)).toEqual(before);
  });
});
