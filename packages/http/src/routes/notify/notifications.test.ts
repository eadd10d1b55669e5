import { request } from "node:http";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, type TestRepo } from "../../../test/repos.js";
import { listen, openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

interface Thread {
  id: number;
  unread: boolean;
  pinned: boolean;
  url: string;
  repository: { full_name: string; permissions?: unknown };
  subject: {
    title: string;
    url: string;
    html_url: string;
    latest_comment_url: string;
    type: string;
    state: string;
  };
}

describe.each(DIALECTS)("notifications on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let watcher: TestUser;
  let assignee: TestUser;
  let mentioned: TestUser;
  let reviewer: TestUser;
  let bystander: TestUser;
  let repo: TestRepo;
  let secret: TestRepo;

  /** Every thread of a user (any status), as a client lists them. */
  const threads = async (user: TestUser, query = "all=true&limit=50"): Promise<Thread[]> => {
    const res = await t.call("GET", `/notifications?${query}`, { token: user.token });
    expect(res.status).toBe(200);
    return res.json;
  };
  const about = (list: Thread[], subjectUrl: string) => list.filter((th) => th.subject.url === subjectUrl);

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    writer = await t.user();
    watcher = await t.user();
    assignee = await t.user();
    mentioned = await t.user();
    reviewer = await t.user();
    bystander = await t.user();
    repo = await createRepo(t, owner, "noisy");
    secret = await createRepo(t, owner, "hush", { private: true });
    for (const user of [writer, assignee, reviewer]) {
      const res = await t.call("PUT", `${repo.path}/collaborators/${user.name}`, {
        token: owner.token,
        body: { permission: "write" },
      });
      expect(res.status).toBe(204);
    }
    expect((await t.call("PUT", `${repo.path}/subscription`, { token: watcher.token })).status).toBe(200);
    await commitWithGit(repo.gitdir, "feature", { "feature.txt": "one\n" }, "Add feature");
  });
  afterAll(() => t?.close());

  it("tells the repository's watchers of a new issue once, and neither its poster nor bystanders", async () => {
    const created = await t.call("POST", `${repo.path}/issues`, {
      token: writer.token,
      body: { title: "first issue", body: "hello" },
    });
    expect(created.status).toBe(201);
    const url = `http://kiln.test/api/v1${repo.path}/issues/${created.json.number}`;
    const mine = about(await threads(watcher), url);
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      unread: true,
      pinned: false,
      url: `http://kiln.test/api/v1/notifications/threads/${mine[0]?.id}`,
      repository: { full_name: `${owner.name}/noisy` },
      subject: {
        title: "first issue",
        type: "Issue",
        state: "open",
        html_url: `http://kiln.test/${owner.name}/noisy/issues/${created.json.number}`,
        latest_comment_url: "",
      },
    });
    expect(mine[0]?.repository.permissions).toBeUndefined();
    expect(about(await threads(owner), url)).toHaveLength(1);
    expect(about(await threads(writer), url)).toHaveLength(0);
    expect(about(await threads(bystander), url)).toHaveLength(0);
  });

  it("tells each recipient of a pull request created through the API exactly once", async () => {
    const created = await t.call("POST", `${repo.path}/pulls`, {
      token: writer.token,
      body: {
        title: "Add the feature",
        body: `please look, @${mentioned.name}`,
        head: "feature",
        base: "main",
        assignees: [assignee.name],
      },
    });
    expect(created.status).toBe(201);
    const url = `http://kiln.test/api/v1${repo.path}/issues/${created.json.number}`;
    // The owner watches the repository since creating it (AUTO_WATCH_NEW_REPOS).
    for (const user of [owner, watcher, assignee, mentioned]) {
      const mine = about(await threads(user), url);
      expect(mine, user.name).toHaveLength(1);
      expect(mine[0]?.subject).toMatchObject({ type: "Pull", state: "open", title: "Add the feature" });
      expect(mine[0]?.subject.html_url).toBe(
        `http://kiln.test/${owner.name}/noisy/pulls/${created.json.number}`,
      );
    }
    for (const user of [writer, reviewer, bystander]) expect(about(await threads(user), url)).toHaveLength(0);
    const only = await t.call("GET", "/notifications?subject-type=pull", { token: watcher.token });
    expect(only.json.map((th: Thread) => th.subject.type)).toEqual(["Pull"]);
    expect(only.headers.get("X-Total-Count")).toBe("1");

    // A requested reviewer is told, still once.
    const asked = await t.call("POST", `${repo.path}/pulls/${created.json.number}/requested_reviewers`, {
      token: writer.token,
      body: { reviewers: [reviewer.name] },
    });
    expect(asked.status).toBe(201);
    expect(about(await threads(reviewer), url)).toHaveLength(1);
    expect(about(await threads(watcher), url)).toHaveLength(1);
    // In the database too: one row per recipient of the pull request.
    const rows = await t.services.ctx.db
      .selectFrom("notification")
      .innerJoin("issue", "issue.id", "notification.issueId")
      .select(["notification.userId"])
      .where("issue.repoId", "=", repo.id)
      .where("issue.index", "=", created.json.number)
      .execute();
    expect(rows.map((r) => r.userId).sort((a, b) => a - b)).toEqual(
      [owner.id, watcher.id, assignee.id, mentioned.id, reviewer.id].sort((a, b) => a - b),
    );
  });

  it("does not tell the repository's watchers of a work-in-progress pull request, as Forgejo", async () => {
    await commitWithGit(repo.gitdir, "draft", { "draft.txt": "soon\n" }, "Draft work");
    const created = await t.call("POST", `${repo.path}/pulls`, {
      token: writer.token,
      body: { title: "WIP: not yet", head: "draft", base: "main", assignees: [assignee.name] },
    });
    expect(created.status).toBe(201);
    const url = `http://kiln.test/api/v1${repo.path}/issues/${created.json.number}`;
    expect(about(await threads(watcher), url)).toHaveLength(0);
    expect(about(await threads(owner), url)).toHaveLength(0);
    expect(about(await threads(assignee), url)).toHaveLength(1);
  });

  it("brings a thread back to unread when an issue is edited through the API", async () => {
    const created = await t.call("POST", `${repo.path}/issues`, {
      token: writer.token,
      body: { title: "to be edited" },
    });
    const url = `http://kiln.test/api/v1${repo.path}/issues/${created.json.number}`;
    const read = await t.call("PUT", "/notifications", { token: watcher.token });
    expect(read.status).toBe(205);
    expect(read.json.length).toBeGreaterThan(0);
    expect(read.json.every((th: Thread) => !th.unread)).toBe(true);
    expect((await t.call("GET", "/notifications/new", { token: watcher.token })).json).toEqual({ new: 0 });
    expect(await threads(watcher, "")).toEqual([]);

    const edited = await t.call("PATCH", `${repo.path}/issues/${created.json.number}`, {
      token: owner.token,
      body: { title: "edited title" },
    });
    expect(edited.status).toBe(201);
    const unread = await threads(watcher, "");
    expect(unread.map((th) => th.subject.url)).toEqual([url]);
    expect(unread[0]).toMatchObject({ unread: true, subject: { title: "edited title" } });
    expect((await t.call("GET", "/notifications/new", { token: watcher.token })).json).toEqual({ new: 1 });

    // A comment is the thread's latest comment.
    const comment = await t.call("POST", `${repo.path}/issues/${created.json.number}/comments`, {
      token: owner.token,
      body: { body: "a comment" },
    });
    const [withComment] = about(await threads(watcher), url);
    expect(withComment?.subject.latest_comment_url).toBe(
      `http://kiln.test/api/v1${repo.path}/issues/comments/${comment.json.id}`,
    );
  });

  it("brings a thread back to unread when a due date is set through the API", async () => {
    const created = await t.call("POST", `${repo.path}/issues`, {
      token: writer.token,
      body: { title: "due soon" },
    });
    const url = `http://kiln.test/api/v1${repo.path}/issues/${created.json.number}`;
    expect((await t.call("PUT", "/notifications", { token: watcher.token })).status).toBe(205);
    expect(about(await threads(watcher, ""), url)).toEqual([]);

    const due = await t.call("POST", `${repo.path}/issues/${created.json.number}/deadline`, {
      token: owner.token,
      body: { due_date: "2030-01-02T00:00:00Z" },
    });
    expect(due.status).toBe(201);
    expect(about(await threads(watcher, ""), url)).toMatchObject([{ unread: true }]);
  });

  it("pins, reads and unreads one thread; another user's is 403, an unknown one 404", async () => {
    const [first] = await threads(watcher);
    if (!first) throw new Error("no thread");
    const path = `/notifications/threads/${first.id}`;
    const pinned = await t.call("PATCH", `${path}?to-status=pinned`, { token: watcher.token });
    expect(pinned.status).toBe(205);
    expect(pinned.json).toMatchObject({ id: first.id, pinned: true, unread: false });
    // Pinned threads are listed by default, and by their status.
    expect((await threads(watcher, "")).map((th) => th.id)).toContain(first.id);
    expect((await threads(watcher, "status-types=pinned")).map((th) => th.id)).toEqual([first.id]);
    const read = await t.call("PATCH", path, { token: watcher.token });
    expect(read.json).toMatchObject({ pinned: false, unread: false });
    expect((await threads(watcher, "")).map((th) => th.id)).not.toContain(first.id);
    expect((await threads(watcher, "status-types=read&status-types=unread")).map((th) => th.id)).toContain(
      first.id,
    );
    const unread = await t.call("PATCH", `${path}?to-status=unread`, { token: watcher.token });
    expect(unread.json).toMatchObject({ unread: true, pinned: false });
    expect((await t.call("GET", path, { token: watcher.token })).json.unread).toBe(true);

    const foreign = await t.call("GET", path, { token: bystander.token });
    expect(foreign.status).toBe(403);
    expect((await t.call("PATCH", path, { token: bystander.token })).status).toBe(403);
    expect((await t.call("GET", "/notifications/threads/999999", { token: watcher.token })).status).toBe(404);
    expect((await t.call("GET", path)).status).toBe(401);
  });

  it("marks only what last_read_at and status-types take, and answers 400 to a bad time", async () => {
    const past = await t.call("PUT", "/notifications?last_read_at=2000-01-01T00:00:00Z&all=true", {
      token: watcher.token,
    });
    expect(past.status).toBe(205);
    expect(past.json).toEqual([]);
    const bad = await t.call("PUT", "/notifications?last_read_at=yesterday", { token: watcher.token });
    expect(bad.status).toBe(400);
    const badSince = await t.call("GET", "/notifications?since=yesterday", { token: watcher.token });
    expect(badSince.status).toBe(422);
    // Unknown statuses or subject types filter nothing, as Forgejo's.
    const everything = await threads(watcher, "all=true");
    expect(everything.length).toBeGreaterThan(1);
    expect(await threads(watcher, "status-types=bogus")).toEqual(everything);
    expect(await threads(watcher, "all=true&subject-type=bogus")).toEqual(everything);
    const toPinned = await t.call("PUT", "/notifications?status-types=unread&to-status=pinned", {
      token: watcher.token,
    });
    expect(toPinned.status).toBe(205);
    expect(toPinned.json.every((th: Thread) => th.pinned)).toBe(true);
    expect((await t.call("GET", "/notifications/new", { token: watcher.token })).json).toEqual({ new: 0 });
  });

  it("lists and marks one repository's threads", async () => {
    const other = await createRepo(t, owner, "quiet-one");
    await t.call("PUT", `${other.path}/subscription`, { token: watcher.token });
    await t.call("POST", `${other.path}/issues`, { token: owner.token, body: { title: "elsewhere" } });
    const list = await t.call("GET", `${other.path}/notifications`, { token: watcher.token });
    expect(list.status).toBe(200);
    expect(list.json.map((th: Thread) => th.subject.title)).toEqual(["elsewhere"]);
    const marked = await t.call("PUT", `${other.path}/notifications`, { token: watcher.token });
    expect(marked.status).toBe(205);
    expect(marked.json.map((th: Thread) => th.subject.title)).toEqual(["elsewhere"]);
    expect((await t.call("GET", `${other.path}/notifications`, { token: watcher.token })).json).toEqual([]);
    // The other repository's threads were left alone.
    expect((await threads(watcher, "status-types=pinned")).length).toBeGreaterThan(0);
    expect((await t.call("GET", `${secret.path}/notifications`, { token: watcher.token })).status).toBe(404);
  });

  it("never tells, nor shows, a user who cannot read the repository", async () => {
    const reader = await t.user();
    await t.call("PUT", `${secret.path}/collaborators/${reader.name}`, {
      token: owner.token,
      body: { permission: "read" },
    });
    expect((await t.call("PUT", `${secret.path}/subscription`, { token: reader.token })).status).toBe(200);
    // A watch row left behind for someone without access (as after losing it) brings nothing.
    await t.services.ctx.db
      .insertInto("watch")
      .values({ userId: bystander.id, repoId: secret.id, mode: 1 })
      .execute();
    const created = await t.call("POST", `${secret.path}/issues`, {
      token: owner.token,
      body: { title: "psst" },
    });
    const rows = await t.services.ctx.db
      .selectFrom("notification")
      .select("userId")
      .where("issueId", "=", created.json.id)
      .execute();
    expect(rows.map((r) => r.userId).sort((a, b) => a - b)).toEqual([reader.id]);
    const [thread] = await threads(reader);
    expect(thread?.subject.title).toBe("psst");

    // Once the reader loses access, the thread is gone from lists, counts and by id.
    await t.call("DELETE", `${secret.path}/collaborators/${reader.name}`, { token: owner.token });
    expect(await threads(reader)).toEqual([]);
    expect((await t.call("GET", "/notifications/new", { token: reader.token })).json).toEqual({ new: 0 });
    expect(
      (await t.call("GET", `/notifications/threads/${thread?.id}`, { token: reader.token })).status,
    ).toBe(404);
    expect((await t.call("PUT", "/notifications?all=true", { token: reader.token })).json).toEqual([]);
  });

  it("answers 205 with the changed threads over a real socket, as Forgejo", async () => {
    const server = await listen(t.app);
    try {
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = request(`${server.url}/api/v1/notifications?all=true&to-status=read`, {
          method: "PUT",
          headers: { Authorization: `token ${watcher.token}` },
        });
        req.on("response", (res) => {
          let body = "";
          res.on("data", (chunk) => {
            body += chunk;
          });
          res.on("end", () => resolve({ status: res.statusCode ?? 0, body }));
        });
        req.on("error", reject);
        req.end();
      });
      expect(answer.status).toBe(205);
      const changed = JSON.parse(answer.body) as Thread[];
      expect(changed.length).toBeGreaterThan(0);
      expect(changed.every((th) => !th.unread && !th.pinned)).toBe(true);
    } finally {
      await server.close();
    }
  });

  it("tells the recipient of a pending repository transfer, with the repository as subject", async () => {
    const gift = await createRepo(t, writer, "gift", { private: true });
    const res = await t.call("POST", `${gift.path}/transfer`, {
      token: writer.token,
      body: { new_owner: bystander.name },
    });
    expect(res.status).toBe(201);
    const mine = (await threads(bystander)).filter((th) => th.subject.type === "Repository");
    expect(mine).toHaveLength(1);
    expect(mine[0]).toMatchObject({
      unread: true,
      repository: { full_name: `${writer.name}/gift` },
      subject: {
        title: `${writer.name}/gift`,
        url: `/${writer.name}/gift`,
        html_url: `http://kiln.test/${writer.name}/gift`,
        state: "",
      },
    });
    const only = await t.call("GET", "/notifications?subject-type=repository", { token: bystander.token });
    expect(only.json).toHaveLength(1);
    expect((await threads(writer)).filter((th) => th.subject.type === "Repository")).toEqual([]);
  });

  it("needs the notification scope", async () => {
    const user = await t.services.users.getByName(watcher.name);
    const repoOnly = await t.services.tokens.create(user, "repo-only", ["read:repository"]);
    const readOnly = await t.services.tokens.create(user, "read-only", ["read:notification"]);
    expect((await t.call("GET", "/notifications", { token: repoOnly.secret })).status).toBe(403);
    expect((await t.call("GET", "/notifications", { token: readOnly.secret })).status).toBe(200);
    expect((await t.call("PUT", "/notifications", { token: readOnly.secret })).status).toBe(403);
    expect((await t.call("GET", `${repo.path}/notifications`, { token: readOnly.secret })).status).toBe(200);
  });
});
