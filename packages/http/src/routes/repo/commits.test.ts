import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { createRepo, refresh, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("commits over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let repo: TestRepo;
  const shas: string[] = [];

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice" });
    repo = await createRepo(t, alice, "history");
    const readme = await t.call("GET", `${repo.path}/commits?limit=1`, { token: alice.token });
    shas.push(readme.json[0].sha);
    for (let i = 1; i <= 4; i++) {
      shas.push(await commitWithGit(repo.gitdir, "main", { [`docs/n${i}.md`]: `note ${i}\n` }, `Note ${i}`));
    }
    shas.push(await commitWithGit(repo.gitdir, "main", { "src/app.ts": "export {};\n" }, "Code"));
    await refresh(t, repo);
  });
  afterAll(() => t?.close());

  it("lists history newest first, paginated with X-Total-Count and Forgejo's Link", async () => {
    const first = await t.call("GET", `${repo.path}/commits?limit=2`, { token: alice.token });
    expect(first.status).toBe(200);
    expect(first.json.map((c: { sha: string }) => c.sha)).toEqual([shas[5], shas[4]]);
    // The total is known on the first page too (Forgejo counts with rev-list).
    expect(first.headers.get("X-Total-Count")).toBe("6");
    expect(first.headers.get("X-HasMore")).toBe("true");
    expect(first.headers.get("Link")).toBe(
      `<http://kiln.test/api/v1${repo.path}/commits?limit=2&page=2>; rel="next",<http://kiln.test/api/v1${repo.path}/commits?limit=2&page=3>; rel="last"`,
    );
    const last = await t.call("GET", `${repo.path}/commits?limit=2&page=3`, { token: alice.token });
    expect(last.json.map((c: { sha: string }) => c.sha)).toEqual([shas[1], shas[0]]);
    expect(last.headers.get("X-Total-Count")).toBe("6");
    expect(last.headers.get("Link")).toContain('rel="prev"');
    expect(last.headers.get("Link")).not.toContain('rel="next"');
  });

  it("shows a commit in Forgejo's shape, with the author's account, files and stats", async () => {
    const res = await t.call("GET", `${repo.path}/commits?limit=1`, { token: alice.token });
    const [commit] = res.json;
    expect(commit).toMatchObject({
      sha: shas[5],
      url: `http://kiln.test/api/v1${repo.path}/git/commits/${shas[5]}`,
      html_url: `http://kiln.test/alice/history/commit/${shas[5]}`,
      commit: {
        message: "Code\n",
        author: { name: "Git User", email: "git-user@example.com" },
        verification: { verified: false, reason: "gpg.error.not_signed_commit" },
      },
      author: null,
      parents: [{ sha: shas[4], created: "0001-01-01T00:00:00Z" }],
      files: [{ filename: "src/app.ts", status: "added" }],
      stats: { additions: 1, deletions: 0, total: 1 },
    });
    const initial = await t.call("GET", `${repo.path}/git/commits/${shas[0]}`, { token: alice.token });
    expect(initial.json.author).toMatchObject({ login: "alice" });
    expect(initial.json.parents).toEqual([]);
  });

  it("leaves out files and stats when asked (stat=false, files=false)", async () => {
    const res = await t.call("GET", `${repo.path}/commits?limit=1&stat=false&files=false`, {
      token: alice.token,
    });
    expect(res.json[0]).not.toHaveProperty("files");
    expect(res.json[0]).not.toHaveProperty("stats");
  });

  it("filters by start (sha) and path, and answers 404 for a path no commit touched", async () => {
    const fromSha = await t.call("GET", `${repo.path}/commits?sha=${shas[2]}`, { token: alice.token });
    expect(fromSha.json.map((c: { sha: string }) => c.sha)).toEqual([shas[2], shas[1], shas[0]]);
    expect(fromSha.headers.get("X-Total-Count")).toBe("3");
    const byPath = await t.call("GET", `${repo.path}/commits?path=docs/n3.md`, { token: alice.token });
    expect(byPath.json.map((c: { sha: string }) => c.sha)).toEqual([shas[3]]);
    const dir = await t.call("GET", `${repo.path}/commits?path=docs`, { token: alice.token });
    expect(dir.json).toHaveLength(4);
    expect((await t.call("GET", `${repo.path}/commits?path=nope.txt`, { token: alice.token })).status).toBe(
      404,
    );
    expect(
      (await t.call("GET", `${repo.path}/commits?sha=no-such-branch`, { token: alice.token })).status,
    ).toBe(404);
  });

  it("reads one commit by branch, tag or sha at /commits/{ref} and /git/commits/{sha}", async () => {
    expect(
      (
        await t.call("POST", `${repo.path}/tags`, {
          token: alice.token,
          body: { tag_name: "v1", target: shas[2] },
        })
      ).status,
    ).toBe(201);
    for (const [ref, sha] of [
      ["main", shas[5]],
      ["v1", shas[2]],
      [shas[3], shas[3]],
      [shas[3]?.slice(0, 10), shas[3]],
    ] as const) {
      const viaCommits = await t.call("GET", `${repo.path}/commits/${ref}`, { token: alice.token });
      expect(viaCommits.status).toBe(200);
      expect(viaCommits.json.sha).toBe(sha);
      const viaGit = await t.call("GET", `${repo.path}/git/commits/${ref}`, { token: alice.token });
      expect(viaGit.status).toBe(200);
      expect(viaGit.json.sha).toBe(sha);
    }
    expect((await t.call("GET", `${repo.path}/commits/nope`, { token: alice.token })).status).toBe(404);
    expect(
      (await t.call("GET", `${repo.path}/git/commits/${"0".repeat(40)}`, { token: alice.token })).status,
    ).toBe(404);
    expect((await t.call("GET", `${repo.path}/git/commits/a..b`, { token: alice.token })).status).toBe(422);
  });

  it("reads a branch whose name has a slash when it is percent-encoded", async () => {
    const sha = await commitWithGit(repo.gitdir, "feature/x", { "f.txt": "f\n" });
    const res = await t.call("GET", `${repo.path}/commits/feature%2Fx`, { token: alice.token });
    expect(res.status).toBe(200);
    expect(res.json.sha).toBe(sha);
  });

  it("answers 409 for the history of an empty repository, and 404 for its commits", async () => {
    const empty = await createRepo(t, alice, "empty-history", { empty: true });
    const res = await t.call("GET", `${empty.path}/commits`, { token: alice.token });
    expect(res.status).toBe(409);
    expect(res.json.message).toBe("Git Repository is empty.");
    expect((await t.call("GET", `${empty.path}/commits/main`, { token: alice.token })).status).toBe(404);
  });

  it("keeps a private repository's history from others (404) and anonymous callers", async () => {
    const secret = await createRepo(t, alice, "secret-history", { private: true });
    const bob = await t.user({ name: "bob" });
    expect((await t.call("GET", `${secret.path}/commits`, { token: bob.token })).status).toBe(404);
    expect((await t.call("GET", `${secret.path}/commits`)).status).toBe(404);
    expect((await t.call("GET", `${repo.path}/commits`)).status).toBe(200);
  });
});
