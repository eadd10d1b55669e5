import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { commitWithGit } from "../../../test/git-work.js";
import { b64, createRepo, refresh, type TestRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("the contents API on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let reader: TestUser;
  let repo: TestRepo;

  const get = (path: string, user: TestUser | null = alice) =>
    t.call("GET", `${repo.path}${path}`, user ? { token: user.token } : {});
  const send = (method: string, path: string, body: unknown, user: TestUser = alice) =>
    t.call(method, `${repo.path}${path}`, { token: user.token, body });
  const readmeSha = async () => (await get("/contents/README.md")).json.sha as string;
  const gitSize = async () => (await t.services.repositories.refreshSize(repo.id)).gitSize;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user({ name: "alice" });
    reader = await t.user({ name: "reader" });
    repo = await createRepo(t, alice, "files");
    await commitWithGit(repo.gitdir, "main", {
      "bin/run.sh": { content: "#!/bin/sh\necho hi\n", executable: true },
      "docs/guide.md": "# Guide\n",
      "link.md": { link: "docs/guide.md" },
    });
    await refresh(t, repo);
    expect(
      (
        await t.call("PUT", `${repo.path}/collaborators/reader`, {
          token: alice.token,
          body: { permission: "read" },
        })
      ).status,
    ).toBe(204);
  });
  afterAll(() => t?.close());

  it("lists the root with every kind of entry, executables and symlinks like other files", async () => {
    const res = await get("/contents");
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.json.map((e: { name: string }) => [e.name, e]));
    expect(Object.keys(byName).sort()).toEqual(["README.md", "bin", "docs", "link.md"]);
    expect(byName.bin).toMatchObject({ type: "dir", content: null, size: 0 });
    expect(byName["link.md"]).toMatchObject({ type: "symlink", target: "docs/guide.md", content: null });
    expect(byName["README.md"]).toMatchObject({
      type: "file",
      content: null,
      encoding: null,
      url: `http://kiln.test/api/v1${repo.path}/contents/README.md?ref=main`,
      html_url: "http://kiln.test/alice/files/src/branch/main/README.md",
      download_url: "http://kiln.test/alice/files/raw/branch/main/README.md",
    });
    expect(byName["README.md"].last_commit_sha).toMatch(/^[0-9a-f]{40}$/);
  });

  it("returns a file with base64 content, an executable as a file, and 404 for a missing path or ref", async () => {
    const script = await get("/contents/bin/run.sh");
    expect(script.status).toBe(200);
    expect(script.json).toMatchObject({
      type: "file",
      name: "run.sh",
      path: "bin/run.sh",
      encoding: "base64",
    });
    expect(Buffer.from(script.json.content, "base64").toString()).toBe("#!/bin/sh\necho hi\n");
    const link = await get("/contents/link.md");
    expect(link.json).toMatchObject({ type: "symlink", target: "docs/guide.md" });
    const dir = await get("/contents/docs");
    expect(dir.json.map((e: { path: string }) => e.path)).toEqual(["docs/guide.md"]);
    expect((await get("/contents/nope.md")).status).toBe(404);
    expect((await get("/contents/README.md?ref=no-such-branch")).status).toBe(404);
  });

  it("serves raw bytes by path, by ?ref= and by a leading branch name (Forgejo's legacy form)", async () => {
    const raw = await t.app.request(`http://kiln.test/api/v1${repo.path}/raw/bin/run.sh`, {
      headers: { Authorization: `token ${alice.token}` },
    });
    expect(raw.status).toBe(200);
    expect(raw.headers.get("Content-Type")).toBe("text/plain; charset=utf-8");
    expect(raw.headers.get("X-Forgejo-Object-Type")).toBe("file");
    expect(await raw.text()).toBe("#!/bin/sh\necho hi\n");
    const withRef = await get("/raw/docs/guide.md?ref=main");
    expect(withRef.text).toBe("# Guide\n");
    const legacy = await get("/raw/main/docs/guide.md");
    expect(legacy.text).toBe("# Guide\n");
    const link = await get("/raw/link.md");
    expect(link.headers.get("X-Forgejo-Object-Type")).toBe("symlink");
    expect(link.text).toBe("docs/guide.md");
    expect((await get("/raw/nope.txt")).status).toBe(404);
    expect((await get("/raw/docs")).status).toBe(404);
  });

  it("creates a file with the given message, author, committer and dates (201), and grows the repository", async () => {
    const before = await gitSize();
    const res = await send("POST", "/contents/notes/a.txt", {
      content: b64("alpha\n"),
      message: "Add a note",
      author: { name: "Ann Author", email: "ann@example.com" },
      committer: { name: "Carl Committer", email: "carl@example.com" },
      dates: { author: "2024-03-01T10:00:00Z", committer: "2024-03-02T11:00:00Z" },
    });
    expect(res.status).toBe(201);
    expect(res.json.content).toMatchObject({ name: "a.txt", path: "notes/a.txt", type: "file", size: 6 });
    expect(res.json.commit).toMatchObject({
      message: "Add a note\n",
      author: { name: "Ann Author", email: "ann@example.com", date: "2024-03-01T10:00:00Z" },
      committer: { name: "Carl Committer", email: "carl@example.com", date: "2024-03-02T11:00:00Z" },
    });
    expect(res.json.content.last_commit_sha).toBe(res.json.commit.sha);
    expect(await gitSize()).toBeGreaterThan(before);
    const again = await send("POST", "/contents/notes/a.txt", { content: b64("x") });
    expect(again.status).toBe(422);
  });

  it("writes as the doer by default, with Forgejo's default message", async () => {
    const res = await send("POST", "/contents/notes/b.txt", { content: b64("beta\n") });
    expect(res.status).toBe(201);
    expect(res.json.commit).toMatchObject({
      message: "Add notes/b.txt\n",
      author: { name: "alice", email: "alice@example.com" },
      committer: { name: "alice", email: "alice@example.com" },
    });
  });

  it("commits to a new branch from another with new_branch, leaving the base untouched", async () => {
    const res = await send("POST", "/contents/feature.txt", {
      content: b64("feature\n"),
      branch: "main",
      new_branch: "topic/one",
    });
    expect(res.status).toBe(201);
    expect(res.json.content.url).toContain("?ref=topic%2Fone");
    expect((await get("/contents/feature.txt?ref=topic/one")).status).toBe(200);
    expect((await get("/contents/feature.txt?branch=topic/one")).status).toBe(200);
    expect((await get("/contents/feature.txt")).status).toBe(404);
    const taken = await send("POST", "/contents/other.txt", { content: b64("x"), new_branch: "topic/one" });
    expect(taken.status).toBe(422);
  });

  it("answers 404 for create, update and delete on a branch that does not exist", async () => {
    const sha = await readmeSha();
    expect((await send("POST", "/contents/x.txt", { content: b64("x"), branch: "ghost" })).status).toBe(404);
    expect(
      (await send("PUT", "/contents/README.md", { content: b64("x"), sha, branch: "ghost" })).status,
    ).toBe(404);
    expect((await send("DELETE", "/contents/README.md", { sha, branch: "ghost" })).status).toBe(404);
  });

  it("answers 409 (never 404) to writes while another process moves the branch, and loses nothing", async () => {
    const before = (await get("/branches/main")).json.commit.id;
    // Git's lock on the branch, as `git receive-pack` or another Kiln process holds it mid-move.
    const lock = join(repo.gitdir, "refs/heads/main.lock");
    await writeFile(lock, "");
    try {
      const created = await send("POST", "/contents/racing.txt", { content: b64("x") });
      expect(created.status).toBe(409);
      expect(created.json.message).toBe("refs/heads/main was changed concurrently; try again");
      const sha = await readmeSha();
      const updated = await send("PUT", "/contents/README.md", { content: b64("y\n"), sha });
      expect(updated.status).toBe(409);
      expect((await get("/branches/main")).json.commit.id).toBe(before);
    } finally {
      await rm(lock, { force: true });
    }
    const created = await send("POST", "/contents/racing.txt", { content: b64("x") });
    expect(created.status).toBe(201);
    expect(created.json.content).toMatchObject({
      path: "racing.txt",
      last_commit_sha: created.json.commit.sha,
    });
    expect((await send("DELETE", "/contents/racing.txt", { sha: created.json.content.sha })).status).toBe(
      200,
    );
  });

  it("updates a file only with its current sha (422 on a mismatch, 422 without one)", async () => {
    const sha = await readmeSha();
    const stale = await send("PUT", "/contents/README.md", { content: b64("new\n"), sha: "0".repeat(40) });
    expect(stale.status).toBe(422);
    expect((await send("PUT", "/contents/README.md", { content: b64("new\n") })).status).toBe(422);
    const ok = await send("PUT", "/contents/README.md", { content: b64("# Files\nupdated\n"), sha });
    expect(ok.status).toBe(200);
    expect(ok.json.commit.message).toBe("Update README.md\n");
    const raw = await get("/raw/README.md");
    expect(raw.text).toBe("# Files\nupdated\n");
    expect((await send("PUT", "/contents/missing.md", { content: b64("x"), sha })).status).toBe(404);
  });

  it("deletes a file with its sha; 404 for a missing path, 400 for a stale sha", async () => {
    const sha = (await get("/contents/notes/b.txt")).json.sha;
    expect((await send("DELETE", "/contents/notes/missing.txt", { sha })).status).toBe(404);
    expect((await send("DELETE", "/contents/notes/b.txt", { sha: "1".repeat(40) })).status).toBe(400);
    const res = await send("DELETE", "/contents/notes/b.txt", { sha, message: "Remove b" });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ content: null, commit: { message: "Remove b\n" } });
    expect((await get("/contents/notes/b.txt")).status).toBe(404);
  });

  it("changes several files in one commit (POST /contents)", async () => {
    const head = (await get("/commits?limit=1")).json[0].sha;
    const a = (await get("/contents/notes/a.txt")).json.sha;
    const guide = (await get("/contents/docs/guide.md")).json.sha;
    const res = await send("POST", "/contents", {
      message: "Reorganize",
      files: [
        { operation: "create", path: "c.txt", content: b64("gamma\n") },
        { operation: "update", path: "notes/a.txt", content: b64("ALPHA\n"), sha: a },
        { operation: "delete", path: "docs/guide.md", sha: guide },
      ],
    });
    expect(res.status).toBe(201);
    expect(res.json.files).toHaveLength(3);
    expect(res.json.files[0]).toMatchObject({ path: "c.txt", type: "file" });
    expect(Buffer.from(res.json.files[1].content, "base64").toString()).toBe("ALPHA\n");
    expect(res.json.files[2]).toBeNull();
    // Forgejo names a parent without reading it: `created` is Go's zero time, and always there.
    expect(res.json.commit.parents).toEqual([
      { sha: head, url: expect.stringMatching(/\/git\/commits\//), created: "0001-01-01T00:00:00Z" },
    ]);
    const commit = await get(`/git/commits/${res.json.commit.sha}`);
    expect(commit.json.files.map((f: { filename: string }) => f.filename).sort()).toEqual([
      "c.txt",
      "docs/guide.md",
      "notes/a.txt",
    ]);
    const bad = await send("POST", "/contents", {
      files: [{ operation: "create", path: "d.txt", content: "%%%" }],
    });
    expect(bad.status).toBe(422);
  });

  it("refuses writes without write access: 403 for a reader, 401 anonymously", async () => {
    const denied = await send("POST", "/contents/r.txt", { content: b64("r") }, reader);
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe("user should have a permission to write to this branch");
    expect(
      (await t.call("POST", `${repo.path}/contents/r.txt`, { body: { content: b64("r") } })).status,
    ).toBe(401);
  });

  it("honours branch protection: no commit without push rights, never a protected file, new branches allowed", async () => {
    const rule = await send("POST", "/branch_protections", {
      rule_name: "main",
      enable_push: true,
      enable_push_whitelist: true,
      push_whitelist_usernames: [],
      protected_file_patterns: "*.lock",
      unprotected_file_patterns: "scratch/**",
    });
    expect(rule.status).toBe(201);
    const blocked = await send("POST", "/contents/p.txt", { content: b64("p") });
    expect(blocked.status).toBe(403);
    expect(blocked.json.message).toBe("user cannot commit to repo [user: alice]");
    expect((await send("POST", "/contents/scratch/s.txt", { content: b64("s") })).status).toBe(201);
    expect((await send("POST", "/contents/p.txt", { content: b64("p"), new_branch: "side" })).status).toBe(
      201,
    );
    await send("PATCH", "/branch_protections/main", { push_whitelist_usernames: ["alice"] });
    expect((await send("POST", "/contents/p.txt", { content: b64("p") })).status).toBe(201);
    const lock = await send("POST", "/contents/deps.lock", { content: b64("lock") });
    expect(lock.status).toBe(403);
    expect(lock.json.message).toBe("path is protected and can not be changed [path: deps.lock]");
    expect((await send("DELETE", "/branch_protections/main", undefined)).status).toBe(204);
  });

  it("refuses writes to an archived repository with 423", async () => {
    const archived = await createRepo(t, alice, "files-archived");
    expect(
      (await t.call("PATCH", archived.path, { token: alice.token, body: { archived: true } })).status,
    ).toBe(200);
    const res = await t.call("POST", `${archived.path}/contents/a.txt`, {
      token: alice.token,
      body: { content: b64("a") },
    });
    expect(res.status).toBe(423);
    expect(res.json.message).toBe("repo is archived");
    expect((await t.call("GET", `${archived.path}/contents/README.md`, { token: alice.token })).status).toBe(
      200,
    );
  });

  it("lists an empty repository as empty and makes its first commit on the given branch", async () => {
    const empty = await createRepo(t, alice, "files-empty", { empty: true });
    const listing = await t.call("GET", `${empty.path}/contents`, { token: alice.token });
    expect(listing.status).toBe(200);
    expect(listing.json).toEqual([]);
    expect((await t.call("GET", `${empty.path}/raw/README.md`, { token: alice.token })).status).toBe(404);
    const update = await t.call("PUT", `${empty.path}/contents/a.txt`, {
      token: alice.token,
      body: { content: b64("a"), sha: "0".repeat(40) },
    });
    expect(update.status).toBe(422);
    const first = await t.call("POST", `${empty.path}/contents/first.txt`, {
      token: alice.token,
      body: { content: b64("first\n"), branch: "trunk" },
    });
    expect(first.status).toBe(201);
    const info = await t.call("GET", empty.path, { token: alice.token });
    expect(info.json).toMatchObject({ empty: false, default_branch: "trunk" });
  });
});
