import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { b64, createRepo, type TestRepo } from "../../../test/repos.js";
import { listen, openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

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
 * Closing keywords (`Fixes #1`, `Closes owner/repo#2`, `Reopens #1`) in pushed commits and in merged
 * pull requests, and plain references (`#3`) that only add a `commit_ref` entry, seen as a Forgejo
 * client sees them: issue states, timelines, the feed, notifications and webhook deliveries.
 */
describe.each(DIALECTS)("closing keywords on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let writer: TestUser;
  let poster: TestUser;
  let repo: TestRepo;
  let other: TestRepo;
  let server: { url: string; close(): Promise<void> };
  let file = 0;

  const issue = async (r: TestRepo, title: string, token = poster.token) => {
    const res = await t.call("POST", `${r.path}/issues`, { token, body: { title } });
    expect(res.status).toBe(201);
    return res.json.number as number;
  };
  const state = async (r: TestRepo, index: number) =>
    (await t.call("GET", `${r.path}/issues/${index}`, { token: alice.token })).json.state as string;
  const timeline = async (r: TestRepo, index: number) =>
    (await t.call("GET", `${r.path}/issues/${index}/timeline`, { token: alice.token })).json as {
      type: string;
      user: { login: string };
      ref_commit_sha: string;
      body: string;
    }[];
  /** A commit on `branch` written through the contents API, as `token`'s user: a push Kiln records. */
  const commitViaApi = async (message: string, token = writer.token, branch = "main") => {
    file++;
    const res = await t.call("POST", `${repo.path}/contents/keyword-${file}.txt`, {
      token,
      body: { content: b64(`${file}\n`), message, branch },
    });
    expect(res.status, res.text).toBe(201);
    return res.json.commit.sha as string;
  };

  beforeAll(async () => {
    t = await openTestApp(dialect);
    server = await listen(t.app);
    alice = await t.user();
    writer = await t.user();
    poster = await t.user();
    repo = await createRepo(t, alice, "keywords");
    other = await createRepo(t, alice, "other");
    await t.call("PUT", `${repo.path}/collaborators/${writer.name}`, {
      token: alice.token,
      body: { permission: "write" },
    });
    await commitWithGit(repo.gitdir, "release", { "release.txt": "r\n" }, "A release branch");
  });
  afterAll(async () => {
    await server?.close();
    await t?.close();
  });

  it("closes issues a commit pushed to the default branch fixes, here and in another repository, as the pusher", async () => {
    const one = await issue(repo, "Broken");
    const mentioned = await issue(repo, "Only mentioned");
    const remote = await issue(other, "Broken over there");
    const hook = await t.call("POST", `${repo.path}/hooks`, {
      token: alice.token,
      body: {
        type: "forgejo",
        config: { url: "http://127.0.0.1:9/", content_type: "json" },
        events: ["issues"],
        active: true,
      },
    });
    expect(hook.status).toBe(201);
    // The writer may read but not write the other repository: its issue is only referenced.
    const sha = await commitViaApi(
      `Fixes #${one}, see #${mentioned}\n\nCloses ${alice.name}/other#${remote}`,
      writer.token,
    );
    expect(await state(repo, one)).toBe("closed");
    expect(await state(repo, mentioned)).toBe("open");
    expect(await state(other, remote)).toBe("open");
    const events = await timeline(repo, one);
    expect(events.map((e) => e.type)).toEqual(["commit_ref", "close"]);
    expect(events[0]).toMatchObject({ ref_commit_sha: sha, user: { login: writer.name } });
    expect(events[0]?.body).toBe(
      `<a href="/${alice.name}/keywords/commit/${sha}">Fixes #${one}, see #${mentioned}</a>`,
    );
    expect(events[1]?.user.login).toBe(writer.name);
    expect((await timeline(repo, mentioned)).map((e) => e.type)).toEqual(["commit_ref"]);
    expect((await timeline(other, remote)).map((e) => e.type)).toEqual(["commit_ref"]);
    // An ordinary change: the poster is notified, the feed has it, the repository's hook gets it.
    const threads = (await t.call("GET", "/notifications?all=true", { token: poster.token })).json;
    expect(threads.some((n: { subject: { title: string } }) => n.subject.title === "Broken")).toBe(true);
    const feed = (await t.call("GET", `/users/${writer.name}/activities/feeds`, { token: writer.token }))
      .json;
    expect(feed.some((a: { op_type: string }) => a.op_type === "close_issue")).toBe(true);
    const tasks = await t.services.ctx.db
      .selectFrom("hook_task")
      .select(["eventType", "payload"])
      .where("hookId", "=", hook.json.id)
      .execute();
    expect(tasks.map((task) => [task.eventType, JSON.parse(task.payload).action])).toEqual([
      ["issues", "closed"],
    ]);
  });

  it("closes issues of another repository when the pusher may write there, and reopens with Reopens", async () => {
    const remote = await issue(other, "Fix me from afar");
    await commitViaApi(`resolves: ${alice.name}/other#${remote}`, alice.token);
    expect(await state(other, remote)).toBe("closed");
    await commitViaApi(`Reopens ${alice.name}/other#${remote}`, alice.token);
    expect(await state(other, remote)).toBe("open");
    expect((await timeline(other, remote)).map((e) => e.type)).toEqual([
      "commit_ref",
      "close",
      "commit_ref",
      "reopen",
    ]);
  });

  it("lets an issue's poster close it, and leaves issues others may not close referenced only", async () => {
    const own = await issue(repo, "Mine to close", writer.token);
    const owned = await issue(other, "The writer's own issue over there", writer.token);
    await commitViaApi(`Fixes ${alice.name}/other#${owned}`, writer.token);
    expect(await state(other, owned)).toBe("closed");
    await commitViaApi(`fix #${own}`, writer.token);
    expect(await state(repo, own)).toBe("closed");
  });

  it("only references from other branches, and closes on the default branch when pushed with git", async () => {
    const index = await issue(repo, "Closed by git");
    await commitViaApi(`Fixes #${index}`, writer.token, "release");
    expect(await state(repo, index)).toBe("open");
    expect((await timeline(repo, index)).map((e) => e.type)).toEqual(["commit_ref"]);

    const work = await mkdtemp(join(tmpdir(), "kiln-keywords-"));
    try {
      const url = new URL(`${server.url}/${alice.name}/keywords.git`);
      url.username = writer.name;
      url.password = writer.token;
      await run(["clone", "-q", url.toString(), "clone"], work);
      const clone = join(work, "clone");
      await writeFile(join(clone, "git.txt"), "git\n");
      await run(["add", "git.txt"], clone);
      await run(["commit", "-qm", `Closes #${index}`], clone);
      await run(["push", "-q", "origin", "main"], clone);
      await run(["push", "-q", "origin", "main:copy"], clone);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    expect(await state(repo, index)).toBe("closed");
    // The same commit pushed again (to another branch) adds no second entry.
    expect((await timeline(repo, index)).map((e) => e.type)).toEqual(["commit_ref", "commit_ref", "close"]);
  });

  it("closes the issues a merged pull request's title or description fixes, whatever its base, as the merger", async () => {
    const [a, b, c, d] = [
      await issue(repo, "Title issue"),
      await issue(repo, "Body issue"),
      await issue(other, "Remote body issue"),
      await issue(repo, "Fenced issue"),
    ];
    await commitWithGit(repo.gitdir, "topic", { "topic.txt": "t\n" }, "A plain commit");
    const opened = await t.call("POST", `${repo.path}/pulls`, {
      token: writer.token,
      body: {
        head: "topic",
        base: "release",
        title: `Fix #${a}`,
        body: `This resolves #${b} and closes ${alice.name}/other#${c}.\n\n\`\`\`\nfixes #${d}\n\`\`\``,
      },
    });
    expect(opened.status).toBe(201);
    expect(await state(repo, a)).toBe("open");
    const merged = await t.call("POST", `${repo.path}/pulls/${opened.json.number}/merge`, {
      token: alice.token,
      body: { Do: "merge" },
    });
    expect(merged.status).toBe(200);
    expect(await state(repo, a)).toBe("closed");
    expect(await state(repo, b)).toBe("closed");
    expect(await state(other, c)).toBe("closed");
    expect(await state(repo, d)).toBe("open");
    const closed = (await timeline(repo, b)).find((e) => e.type === "close");
    expect(closed?.user.login).toBe(alice.name);
  });

  it("closes the issues a merged pull request's commits fix when it merges into the default branch", async () => {
    const index = await issue(repo, "Fixed by a commit of a pull request");
    await commitWithGit(repo.gitdir, "commit-fix", { "cf.txt": "x\n" }, `Fixes #${index}`);
    const opened = await t.call("POST", `${repo.path}/pulls`, {
      token: writer.token,
      body: { head: "commit-fix", base: "main", title: "Plain title" },
    });
    expect(await state(repo, index)).toBe("open");
    expect(
      (
        await t.call("POST", `${repo.path}/pulls/${opened.json.number}/merge`, {
          token: alice.token,
          body: { Do: "rebase" },
        })
      ).status,
    ).toBe(200);
    expect(await state(repo, index)).toBe("closed");
    expect((await timeline(repo, index)).at(-1)?.user.login).toBe(alice.name);
  });

  it("keeps a private repository's commits off the timelines of other repositories' issues", async () => {
    const secret = await createRepo(t, alice, "secret", { private: true });
    const index = await issue(other, "Referenced from a private place");
    const res = await t.call("POST", `${secret.path}/contents/s.txt`, {
      token: alice.token,
      body: { content: b64("s\n"), message: `Fixes ${alice.name}/other#${index}` },
    });
    expect(res.status).toBe(201);
    expect(await state(other, index)).toBe("closed");
    const events = await timeline(other, index);
    expect(events.map((e) => e.type)).toEqual(["close"]);
    expect(JSON.stringify(events)).not.toContain("secret");
  });
  it("follows at most 1000 references in one push, whatever its commits name", async () => {
    const flood = await createRepo(t, alice, "flood");
    const first = await issue(flood, "Named by every commit");
    const names = Array.from({ length: 100 }, (_, i) => `#${first + i}`).join(" ");
    const work = await mkdtemp(join(tmpdir(), "kiln-keywords-"));
    try {
      const url = new URL(`${server.url}/${alice.name}/flood.git`);
      url.username = alice.name;
      url.password = alice.token;
      await run(["clone", "-q", url.toString(), "clone"], work);
      const clone = join(work, "clone");
      for (let i = 1; i <= 11; i++)
        await run(["commit", "-q", "--allow-empty", "-m", `Step ${i}: ${names}`], clone);
      await run(["push", "-q", "origin", "main"], clone);
    } finally {
      await rm(work, { recursive: true, force: true });
    }
    // Ten commits of 100 references each use the push's allowance; the eleventh adds nothing.
    const refs = (await timeline(flood, first)).filter((e) => e.type === "commit_ref");
    expect(refs.map((e) => e.body.replace(/^.*>Step (\d+):.*$/, "$1"))).toEqual(
      Array.from({ length: 10 }, (_, i) => `${i + 1}`),
    );
  });
});
