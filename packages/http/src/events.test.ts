import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { ForgeEvent } from "@kiln/service";
import { actions } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { b64, createRepo, type TestRepo } from "../test/repos.js";
import { listen, openTestApp, type TestApp, type TestUser } from "../test/support.js";

const ZERO = "0".repeat(40);

function run(args: readonly string[], cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const env = {
      PATH: process.env.PATH,
      HOME: cwd,
      GIT_CONFIG_NOSYSTEM: "1",
      GIT_TERMINAL_PROMPT: "0",
      GIT_AUTHOR_NAME: "Pusher",
      GIT_AUTHOR_EMAIL: "pusher@example.com",
      GIT_COMMITTER_NAME: "Pusher",
      GIT_COMMITTER_EMAIL: "pusher@example.com",
    };
    execFile("git", [...args], { cwd, env }, (error, stdout, stderr) =>
      error ? reject(new Error(`git ${args.join(" ")}: ${stderr}`)) : resolve(stdout.trim()),
    );
  });
}

/**
 * Every change a Forgejo client makes through the API (and git push) records its events, with
 * Forgejo's webhook types and actions, exactly once and in the transaction of the change.
 */
describe.each(DIALECTS)("events recorded by changes on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let repo: TestRepo;
  /** What the capturing consumer saw, with whether it ran inside a transaction. */
  const seen: { event: ForgeEvent; inTransaction: boolean }[] = [];
  let failOn: ((event: ForgeEvent) => boolean) | undefined;

  /** The events recorded while `action` runs, as `type:action` (or `type:refType:ref`). */
  async function during(action: () => Promise<unknown>): Promise<ForgeEvent[]> {
    const from = seen.length;
    await action();
    const got = seen.slice(from);
    for (const { inTransaction } of got) expect(inTransaction).toBe(true);
    return got.map((s) => s.event);
  }
  const names = (events: readonly ForgeEvent[]) =>
    events.map((e) =>
      e.type === "create" || e.type === "delete"
        ? `${e.type}:${e.refType}:${e.ref}`
        : e.type === "push"
          ? `push:${e.ref}`
          : `${e.type}:${"action" in e ? e.action : ""}`,
    );
  const ok = async (method: string, path: string, body?: unknown, token = owner.token) => {
    const res = await t.call(method, path, { token, ...(body !== undefined ? { body } : {}) });
    expect(res.status, `${method} ${path}: ${res.text}`).toBeLessThan(300);
    return res.json;
  };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    t.services.ctx.events.register({
      name: "test-capture",
      async consume(trx, event) {
        if (failOn?.(event)) throw new Error("consumer refused");
        seen.push({ event, inTransaction: trx.isTransaction });
      },
    });
    owner = await t.user();
    writer = await t.user();
    repo = await createRepo(t, owner, "events");
    await ok("PUT", `${repo.path}/collaborators/${writer.name}`, { permission: "write" });
  });
  afterAll(() => t?.close());

  it("records repository creation and deletion", async () => {
    const created = await during(() => createRepo(t, owner, "short-lived"));
    expect(names(created)).toEqual(["repository:created"]);
    expect(created[0]).toMatchObject({ actorId: owner.id, ownerId: owner.id });
    const deleted = await during(() => ok("DELETE", `/repos/${owner.name}/short-lived`));
    expect(names(deleted)).toEqual(["repository:deleted"]);
    expect(deleted[0]?.repoId).toBe(created[0]?.repoId);
  });

  it("records an issue's life: opened, assigned, edited, labels, milestone, state, comments, deletion", async () => {
    let index = 0;
    const opened = await during(async () => {
      index = (
        await ok("POST", `${repo.path}/issues`, { title: "Bug", body: "It breaks", assignees: [writer.name] })
      ).number;
    });
    expect(names(opened)).toEqual(["issues:opened", "issue_assign:assigned"]);
    expect(opened[1]).toMatchObject({ assigneeId: writer.id, actorId: owner.id });
    const issue = `${repo.path}/issues/${index}`;

    const edited = await during(() => ok("PATCH", issue, { title: "Big bug", body: "It really breaks" }));
    expect(edited).toMatchObject([
      { type: "issues", action: "edited", changes: { title: { from: "Bug" } } },
      { type: "issues", action: "edited", changes: { body: { from: "It breaks" } } },
    ]);
    expect(names(await during(() => ok("PATCH", issue, { title: "Big bug" })))).toEqual([]);

    const label = await ok("POST", `${repo.path}/labels`, { name: "bug", color: "#ff0000" });
    expect(names(await during(() => ok("POST", `${issue}/labels`, { labels: [label.id] })))).toEqual([
      "issue_label:label_updated",
    ]);
    expect(names(await during(() => ok("DELETE", `${issue}/labels`)))).toEqual(["issue_label:label_cleared"]);

    const milestone = await ok("POST", `${repo.path}/milestones`, { title: "v1" });
    expect(await during(() => ok("PATCH", issue, { milestone: milestone.id }))).toMatchObject([
      { type: "issue_milestone", action: "milestoned", milestoneId: milestone.id },
    ]);
    expect(await during(() => ok("PATCH", issue, { milestone: 0 }))).toMatchObject([
      { type: "issue_milestone", action: "demilestoned", milestoneId: milestone.id },
    ]);
    expect(await during(() => ok("PATCH", issue, { assignees: [] }))).toMatchObject([
      { type: "issue_assign", action: "unassigned", assigneeId: writer.id },
    ]);
    expect(names(await during(() => ok("PATCH", issue, { state: "closed" })))).toEqual(["issues:closed"]);
    expect(names(await during(() => ok("PATCH", issue, { state: "open" })))).toEqual(["issues:reopened"]);

    let commentId = 0;
    const commented = await during(async () => {
      commentId = (await ok("POST", `${issue}/comments`, { body: "Same here" }, writer.token)).id;
    });
    expect(commented).toMatchObject([
      { type: "issue_comment", action: "created", commentId, actorId: writer.id },
    ]);
    const comment = `${repo.path}/issues/comments/${commentId}`;
    expect(await during(() => ok("PATCH", comment, { body: "Same here!" }, writer.token))).toMatchObject([
      { type: "issue_comment", action: "edited", commentId, changes: { body: { from: "Same here" } } },
    ]);
    expect(names(await during(() => ok("DELETE", comment, undefined, writer.token)))).toEqual([
      "issue_comment:deleted",
    ]);
    const deleted = await during(() => ok("DELETE", issue));
    expect(deleted).toMatchObject([
      {
        type: "issues",
        action: "deleted",
        issueId: opened[0] && "issueId" in opened[0] ? opened[0].issueId : -1,
      },
    ]);
  });

  it("records branch and tag changes made through the API as Forgejo's push does", async () => {
    expect(
      names(await during(() => ok("POST", `${repo.path}/branches`, { new_branch_name: "side" }))),
    ).toEqual(["create:branch:side", "push:refs/heads/side"]);
    const removed = await during(() => ok("DELETE", `${repo.path}/branches/side`));
    expect(removed).toMatchObject([{ type: "delete", refType: "branch", ref: "side", actorId: owner.id }]);
    const tagged = await during(() => ok("POST", `${repo.path}/tags`, { tag_name: "v0.1" }));
    expect(names(tagged)).toEqual(["push:refs/tags/v0.1", "create:tag:v0.1"]);
    expect(tagged[0]).toMatchObject({ before: ZERO });
    const untagged = await during(() => ok("DELETE", `${repo.path}/tags/v0.1`));
    expect(names(untagged)).toEqual(["push:refs/tags/v0.1", "delete:tag:v0.1"]);
    expect(untagged[0]).toMatchObject({ after: ZERO });
  });

  it("records a file written through the API as a push by its author", async () => {
    const before = (await ok("GET", `${repo.path}/branches/main`)).commit.id;
    const pushed = await during(() =>
      ok("POST", `${repo.path}/contents/notes.txt`, { content: b64("notes\n") }, writer.token),
    );
    const after = (await ok("GET", `${repo.path}/branches/main`)).commit.id;
    expect(pushed).toMatchObject([
      { type: "push", ref: "refs/heads/main", before, after, actorId: writer.id },
    ]);
    // The commits it brought, read from git before the transaction.
    expect(pushed[0]).toMatchObject({
      totalCommits: 1,
      commits: [{ sha: after, message: expect.stringContaining("notes.txt"), authorName: writer.name }],
    });
  });

  it("records a pull request's opening, review, review request and merge (a push, then closed)", async () => {
    await ok(
      "POST",
      `${repo.path}/contents/topic.txt`,
      { content: b64("topic\n"), new_branch: "topic" },
      writer.token,
    );
    let index = 0;
    const opened = await during(async () => {
      index = (
        await ok("POST", `${repo.path}/pulls`, { head: "topic", base: "main", title: "Topic" }, writer.token)
      ).number;
    });
    expect(names(opened)).toEqual(["pull_request:opened"]);
    const pull = `${repo.path}/pulls/${index}`;
    expect(
      await during(() =>
        ok("POST", `${pull}/requested_reviewers`, { reviewers: [owner.name] }, writer.token),
      ),
    ).toMatchObject([
      { type: "pull_request_review_request", action: "review_requested", reviewerId: owner.id, teamId: null },
    ]);
    expect(
      names(await during(() => ok("POST", `${pull}/reviews`, { event: "APPROVED", body: "Good" }))),
    ).toEqual(["pull_request_review_approved:reviewed"]);
    expect(names(await during(() => ok("PATCH", pull, { title: "Topic!" }, writer.token)))).toEqual([
      "pull_request:edited",
    ]);
    // A head moved (here by the contents API) is synchronized by the check the write starts.
    const synced = await during(async () => {
      await ok(
        "POST",
        `${repo.path}/contents/more.txt`,
        { content: b64("more\n"), branch: "topic" },
        writer.token,
      );
      await ok("GET", pull);
    });
    expect(names(synced)).toEqual(["push:refs/heads/topic", "pull_request_sync:synchronized"]);
    // Credited to the writer, as a git push is to its pusher.
    expect(synced[1]).toMatchObject({ actorId: writer.id });
    const merged = await during(() => ok("POST", `${pull}/merge`, { Do: "merge" }));
    expect(names(merged)).toEqual(["push:refs/heads/main", "pull_request:closed"]);
    expect(merged[0]).toMatchObject({ actorId: owner.id });
    const closed = await t.call("GET", pull, { token: owner.token });
    expect(closed.json.merged).toBe(true);
  });

  it("records releases as Forgejo: a draft fires nothing until published", async () => {
    let id = 0;
    const draft = await during(async () => {
      id = (await ok("POST", `${repo.path}/releases`, { tag_name: "v1.0", title: "One", draft: true })).id;
    });
    expect(names(draft)).toEqual([]);
    expect(names(await during(() => ok("PATCH", `${repo.path}/releases/${id}`, { body: "notes" })))).toEqual(
      [],
    );
    const published = await during(() => ok("PATCH", `${repo.path}/releases/${id}`, { draft: false }));
    expect(names(published)).toEqual(["push:refs/tags/v1.0", "create:tag:v1.0", "release:published"]);
    expect(names(await during(() => ok("PATCH", `${repo.path}/releases/${id}`, { title: "Uno" })))).toEqual([
      "release:updated",
    ]);
    expect(names(await during(() => ok("DELETE", `${repo.path}/releases/${id}`)))).toEqual([
      "release:deleted",
    ]);
  });

  it("records packages created and deleted", async () => {
    const registry = (method: string, path: string, body?: string) =>
      t.app.request(`http://kiln.test/api/packages/${owner.name}/generic/tool/1.0.0${path}`, {
        method,
        headers: { Authorization: `token ${owner.token}` },
        ...(body !== undefined ? { body } : {}),
      });
    const created = await during(async () => expect((await registry("PUT", "/a.bin", "a")).status).toBe(201));
    expect(created).toMatchObject([{ type: "package", action: "created", repoId: null, ownerId: owner.id }]);
    expect(
      names(await during(async () => expect((await registry("PUT", "/b.bin", "b")).status).toBe(201))),
    ).toEqual([]);
    const deleted = await during(async () => expect((await registry("DELETE", "")).status).toBe(204));
    expect(deleted).toMatchObject([
      {
        type: "package",
        action: "deleted",
        packageVersionId: (created[0] as { packageVersionId: number }).packageVersionId,
      },
    ]);
  });

  it("records a git push over HTTP for the pusher", async () => {
    const server = await listen(t.app);
    const home = await mkdtemp(join(tmpdir(), "kiln-events-"));
    try {
      const url = `${server.url.replace("://", `://${writer.name}:password1@`)}/${owner.name}/${repo.name}.git`;
      await run(["clone", "--quiet", url, "work"], home);
      const work = join(home, "work");
      await writeFile(join(work, "pushed.txt"), "pushed\n");
      await run(["add", "-A"], work);
      await run(["commit", "--quiet", "-m", "Pushed"], work);
      const pushed = await during(() => run(["push", "--quiet", "origin", "HEAD:refs/heads/pushed"], work));
      expect(names(pushed)).toEqual(["create:branch:pushed", "push:refs/heads/pushed"]);
      expect(pushed[1]).toMatchObject({
        actorId: writer.id,
        before: ZERO,
        after: await run(["rev-parse", "HEAD"], work),
      });
    } finally {
      await server.close();
      await rm(home, { recursive: true, force: true });
    }
  });

  it("rolls a change back with its events when a consumer fails", async () => {
    const issue = await ok("POST", `${repo.path}/issues`, { title: "Quiet" });
    failOn = (event) => event.type === "issue_comment";
    try {
      const refused = await t.call("POST", `${repo.path}/issues/${issue.number}/comments`, {
        token: owner.token,
        body: { body: "lost" },
      });
      expect(refused.status).toBe(500);
    } finally {
      failOn = undefined;
    }
    const comments = await t.call("GET", `${repo.path}/issues/${issue.number}/comments`, {
      token: owner.token,
    });
    expect(comments.json).toEqual([]);
    const feed = await actions.actionsOfRepository(t.services.ctx.db, repo.id, 100);
    expect(feed.map((entry) => entry.opType)).not.toContain(actions.ActionType.comment_issue);
  });
});
