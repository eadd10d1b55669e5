import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { gzipSync } from "node:zlib";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { GitCli, scratch } from "../../test/helpers.js";
import { startTestServer } from "../../test/test-server.js";
import { RepoStore } from "../disk/repo-store.js";
import { spareChannelDirs } from "../hooks/hook-channel.js";
import type { BranchRulePolicy } from "../hooks/push-policy.js";
import { ZERO_SHA } from "../hooks/push-policy.js";
import { LfsStore } from "../lfs/lfs-store.js";
import { getBranch } from "../objects/branches.js";
import { getCommit } from "../objects/commits.js";
import { handleGitHttp } from "./smart-http.js";

const author = { name: "Kiln", email: "kiln@example.com" };

function mainRule(overrides: Partial<BranchRulePolicy> = {}): BranchRulePolicy {
  return {
    ruleName: "main",
    canPush: true,
    canForcePush: false,
    canDelete: false,
    requireSignedCommits: false,
    protectedFilePatterns: "",
    unprotectedFilePatterns: "",
    canChangeProtectedFiles: false,
    ...overrides,
  };
}

describe("smart HTTP transport with the real git client", () => {
  let root: Awaited<ReturnType<typeof scratch>>;
  let store: RepoStore;
  let server: Awaited<ReturnType<typeof startTestServer>>;
  let cli: GitCli;
  let counter = 0;

  beforeAll(async () => {
    root = await scratch();
    store = new RepoStore({ root: join(root.dir, "repos") });
    server = await startTestServer(store, new LfsStore(join(root.dir, "lfs")));
    cli = await new GitCli(root.dir).setup();
  });

  afterAll(async () => {
    await server.close();
    await root.cleanup();
  });

  beforeEach(() => {
    delete server.hooks.pushPolicy;
    server.hooks.pushes.length = 0;
    server.hooks.errors.length = 0;
  });

  /** A fresh auto-initialised repository and a clone of it. */
  async function cloned(protocol = "2"): Promise<{ name: string; work: string; url: string }> {
    const name = `repo${++counter}`;
    await store.create("alice", name, { autoInit: { author } });
    const url = `${server.url}/alice/${name}.git`;
    const work = join(root.dir, `work-${name}`);
    await cli.ok(["-c", `protocol.version=${protocol}`, "clone", "--quiet", url, work]);
    return { name, work, url };
  }

  async function commitFile(work: string, path: string, content: string, message = `change ${path}`) {
    await writeFile(join(work, path), content);
    await cli.ok(["add", path], work);
    await cli.ok(["commit", "--quiet", "-m", message], work);
    return cli.ok(["rev-parse", "HEAD"], work);
  }

  it("clones over protocol v2 and v0, and pushes a commit the API then reads", async () => {
    for (const protocol of ["2", "0"]) {
      const { name, work } = await cloned(protocol);
      expect(await readFile(join(work, "README.md"), "utf8")).toBe(`# ${name}\n`);
      const before = await getBranch(await store.open("alice", name), "main");
      const sha = await commitFile(work, "hello.txt", "hello\n", "Say hello");
      await cli.ok(["-c", `protocol.version=${protocol}`, "push", "--quiet", "origin", "main"], work);

      const repo = await store.open("alice", name);
      const commit = await getCommit(repo, "main");
      expect(commit.sha).toBe(sha);
      expect(commit.message).toBe("Say hello\n");
      expect(commit.files).toEqual([{ filename: "hello.txt", status: "added", additions: 1, deletions: 0 }]);
      expect(server.hooks.pushes.at(-1)).toEqual([
        { oldSha: before.commit.sha, newSha: sha, ref: "refs/heads/main" },
      ]);
    }
    expect(server.hooks.errors).toEqual([]);
  });

  it("pushes into an empty repository and fetches into a second clone", async () => {
    await store.create("alice", "empty", { defaultBranch: "trunk" });
    const url = `${server.url}/alice/empty.git`;
    const work = join(root.dir, "work-empty");
    const cloneResult = await cli.run(["clone", url, work]);
    expect(cloneResult.code).toBe(0);
    expect(cloneResult.stderr).toContain("empty repository");
    await cli.ok(["checkout", "--quiet", "-b", "trunk"], work);
    const first = await commitFile(work, "a.txt", "a\n");
    await cli.ok(["push", "--quiet", "origin", "trunk"], work);
    expect(server.hooks.pushes.at(-1)).toEqual([
      { oldSha: ZERO_SHA, newSha: first, ref: "refs/heads/trunk" },
    ]);

    const other = join(root.dir, "work-empty-2");
    await cli.ok(["clone", "--quiet", url, other]);
    expect(await cli.ok(["rev-parse", "HEAD"], other)).toBe(first);
    const second = await commitFile(work, "b.txt", "b\n");
    await cli.ok(["push", "--quiet", "origin", "trunk"], work);
    await cli.ok(["pull", "--quiet", "--ff-only"], other);
    expect(await cli.ok(["rev-parse", "HEAD"], other)).toBe(second);
    expect(await store.size("alice", "empty")).toBeGreaterThan(0);
  });

  it("refuses a force push to a protected branch with git's remote: message", async () => {
    const { name, work } = await cloned();
    const head = await cli.ok(["rev-parse", "HEAD"], work);
    await commitFile(work, "x.txt", "x\n");
    await cli.ok(["push", "--quiet", "origin", "main"], work);
    server.hooks.pushPolicy = { branchRules: [mainRule()] };

    await cli.ok(["reset", "--quiet", "--hard", head], work);
    const rewritten = await commitFile(work, "y.txt", "y\n");
    const result = await cli.run(["push", "--force", "origin", "main"], work);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("remote: branch main is protected from force push");
    expect(result.stderr).toContain("pre-receive hook declined");
    const repo = await store.open("alice", name);
    expect((await getBranch(repo, "main")).commit.sha).not.toBe(rewritten);
    expect(server.hooks.pushes.at(-1)).toEqual([]);

    server.hooks.pushPolicy = { branchRules: [mainRule({ canForcePush: true })] };
    await cli.ok(["push", "--quiet", "--force", "origin", "main"], work);
    expect((await getBranch(repo, "main")).commit.sha).toBe(rewritten);
  });

  it("refuses changes to protected files and pushes by non-whitelisted users", async () => {
    const { name, work } = await cloned();
    server.hooks.pushPolicy = { branchRules: [mainRule({ protectedFilePatterns: "*.lock;secrets/**" })] };
    await commitFile(work, "yarn.lock", "lock\n");
    const refused = await cli.run(["push", "origin", "main"], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: branch main is protected from changing file yarn.lock");

    await cli.ok(["reset", "--quiet", "--hard", "HEAD~1"], work);
    server.hooks.pushPolicy = {
      branchRules: [mainRule({ canPush: false, unprotectedFilePatterns: "docs/**" })],
    };
    await commitFile(work, "code.ts", "x\n");
    const blocked = await cli.run(["push", "origin", "main"], work);
    expect(blocked.stderr).toContain("remote: Not allowed to push to protected branch main");

    await cli.ok(["checkout", "--quiet", "-b", "topic"], work);
    await cli.ok(["push", "--quiet", "origin", "topic"], work);

    await cli.ok(["checkout", "--quiet", "main"], work);
    await cli.ok(["reset", "--quiet", "--hard", "HEAD~1"], work);
    await mkdir(join(work, "docs"));
    const docs = await commitFile(work, "docs/guide.md", "guide\n");
    const allowed = await cli.run(["push", "origin", "main"], work);
    expect(allowed.code, allowed.stderr).toBe(0);
    expect((await getBranch(await store.open("alice", name), "main")).commit.sha).toBe(docs);
  });

  it("holds the repository's write lock while receive-pack runs", async () => {
    const { name, work } = await cloned();
    const sha = await commitFile(work, "locked.txt", "l\n");
    const repo = await store.open("alice", name);
    let pushDone = false;
    let pushedWhileLocked = true;
    let push: Promise<unknown> = Promise.resolve();
    await repo.withWriteLock(async () => {
      push = cli.run(["push", "--quiet", "origin", "main"], work).then(() => {
        pushDone = true;
      });
      await new Promise((resolve) => setTimeout(resolve, 500));
      pushedWhileLocked = pushDone;
    });
    await push;
    expect(pushedWhileLocked).toBe(false);
    expect((await getBranch(repo, "main")).commit.sha).toBe(sha);
  });

  it("refuses a push changing a file another user holds a Git LFS lock on, however many locks there are", async () => {
    const { name, work } = await cloned();
    // Far more than one environment string can hold (128 KiB): the policy stays in the server.
    const others = Array.from({ length: 4000 }, (_, i) => ({
      path: `assets/level-${i}/${"x".repeat(40)}.bin`,
      owner: "bob",
    }));
    server.hooks.pushPolicy = {
      branchRules: [],
      lfsLocks: [...others, { path: "Hero.PSD", owner: "carol" }],
    };
    await commitFile(work, "hero.psd", "pixels\n");
    const refused = await cli.run(["push", "origin", "main"], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: file hero.psd is locked by carol");
    expect(refused.stderr).toContain("pre-receive hook declined");

    await cli.ok(["reset", "--quiet", "--hard", "HEAD~1"], work);
    const free = await commitFile(work, "notes.txt", "free\n");
    await cli.ok(["push", "--quiet", "origin", "main"], work);
    expect((await getBranch(await store.open("alice", name), "main")).commit.sha).toBe(free);
  });

  it("takes pushes when other users' locks name multi-byte paths longer than one environment string", async () => {
    const { work } = await cloned();
    // 40 paths of 1,300 three-byte characters: about 156 KiB of bytes, past Linux's 128 KiB
    // limit on one environment string (which a policy handed to the hook would have to fit).
    const others = Array.from({ length: 40 }, (_, i) => ({
      path: `${i}/${"資".repeat(1300)}`,
      owner: "bob",
    }));
    server.hooks.pushPolicy = { branchRules: [], lfsLocks: others };
    const sha = await commitFile(work, "notes.txt", "free\n");
    const pushed = await cli.run(["push", "origin", "main"], work);
    expect(pushed.stderr).not.toContain("pre-receive hook declined");
    expect(pushed.code).toBe(0);
    expect(server.hooks.pushes.at(-1)?.[0]?.newSha).toBe(sha);
  });

  it("refuses a force push that takes back another user's change to a locked file", async () => {
    const { work } = await cloned();
    const base = await cli.ok(["rev-parse", "HEAD"], work);
    await commitFile(work, "hero.psd", "carol's pixels\n");
    await cli.ok(["push", "--quiet", "origin", "main"], work);
    server.hooks.pushPolicy = { branchRules: [], lfsLocks: [{ path: "hero.psd", owner: "carol" }] };
    // Back to before carol's change, with an unrelated commit on top: the branch's hero.psd changes.
    await cli.ok(["reset", "--quiet", "--hard", base], work);
    await commitFile(work, "notes.txt", "mine\n");
    const refused = await cli.run(["push", "--force", "origin", "main"], work);
    expect(refused.stderr).toContain("remote: file hero.psd is locked by carol");
    expect(refused.code).not.toBe(0);
    // Rewinding the branch alone changes hero.psd too.
    const rewind = await cli.run(["push", "--force", "origin", `${base}:refs/heads/main`], work);
    expect(rewind.stderr).toContain("remote: file hero.psd is locked by carol");
    expect(rewind.code).not.toBe(0);
  });

  it("refuses deleting the default branch by push", async () => {
    const { work } = await cloned();
    server.hooks.pushPolicy = { branchRules: [], defaultBranch: "main" };
    const result = await cli.run(["push", "origin", ":main"], work);
    expect(result.code).not.toBe(0);
    expect(result.stderr).toContain("remote: branch main is the default branch and cannot be deleted");
  });

  it("gives a repository with an outdated pre-receive hook the current one before a push", async () => {
    const { name, work } = await cloned();
    const repo = await store.open("alice", name);
    // An older hook that lets every push through (as one speaking another protocol would).
    const hookPath = join(repo.gitdir, "hooks", "pre-receive");
    await writeFile(hookPath, "#!/bin/sh\ncat >/dev/null\nexit 0\n", { mode: 0o755 });
    server.hooks.pushPolicy = { branchRules: [mainRule({ canPush: false })] };
    await commitFile(work, "x.txt", "x\n");
    const refused = await cli.run(["push", "origin", "main"], work);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toContain("remote: Not allowed to push to protected branch main");
    expect(await readFile(hookPath, "utf8")).toContain("KILN_PUSH_HOOK");
  });

  it("leaves no hook channel behind, whether or not git ran the hook", async () => {
    const tmp = join(root.dir, "tmp");
    await mkdir(tmp);
    const saved = process.env.TMPDIR;
    process.env.TMPDIR = tmp;
    // Directories made ahead for later pushes are no leftovers.
    const channels = async () =>
      (await readdir(tmp)).filter(
        (entry) => entry.startsWith("kiln-hook-") && !spareChannelDirs().includes(join(tmp, entry)),
      );
    try {
      const { name, work } = await cloned();
      server.hooks.pushPolicy = { branchRules: [mainRule({ canPush: false })] };
      await commitFile(work, "x.txt", "x\n");
      expect((await cli.run(["push", "origin", "main"], work)).code).not.toBe(0);
      expect(await channels()).toEqual([]);

      // A receive-pack request with no commands (git's probe before a large push): git never runs the hook.
      const repo = await store.open("alice", name);
      const probe = await handleGitHttp(
        repo,
        "git-receive-pack",
        new Request(`${server.url}/alice/${name}.git/git-receive-pack`, {
          method: "POST",
          headers: { "content-type": "application/x-git-receive-pack-request" },
          body: "0000",
        }),
        { pushPolicy: { branchRules: [] } },
      );
      expect(probe.status).toBe(200);
      await probe.arrayBuffer();
      expect(await channels()).toEqual([]);
    } finally {
      if (saved === undefined) delete process.env.TMPDIR;
      else process.env.TMPDIR = saved;
    }
  });

  it("answers git's probe before a large push at once, even while another push holds the repository", async () => {
    const { name } = await cloned();
    const repo = await store.open("alice", name);
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let locked: () => void = () => {};
    const lockTaken = new Promise<void>((resolve) => {
      locked = resolve;
    });
    const otherPush = repo.withWriteLock(() => {
      locked();
      return held;
    });
    await lockTaken;
    const pushed: unknown[] = [];
    const probe = await handleGitHttp(
      repo,
      "git-receive-pack",
      new Request(`${server.url}/alice/${name}.git/git-receive-pack`, {
        method: "POST",
        headers: { "content-type": "application/x-git-receive-pack-request", "content-length": "4" },
        body: "0000",
      }),
      // No git binary there: the probe must not need one.
      { gitPath: join(root.dir, "no-git"), onPushed: (updates) => void pushed.push(updates) },
    );
    expect(probe.status).toBe(200);
    expect(probe.headers.get("content-type")).toBe("application/x-git-receive-pack-result");
    expect((await probe.arrayBuffer()).byteLength).toBe(0);
    expect(pushed).toEqual([[]]);
    release();
    await otherPush;
  });

  it("pushes an LFS object and clones it back with git-lfs", async () => {
    const { work, url } = await cloned();
    await cli.ok(["lfs", "track", "*.bin"], work);
    const content = Buffer.alloc(300_000, 7);
    content.write("kiln lfs test", 0);
    await writeFile(join(work, "data.bin"), content);
    await cli.ok(["add", ".gitattributes", "data.bin"], work);
    await cli.ok(["commit", "--quiet", "-m", "Add LFS data"], work);
    const pushed = await cli.run(["push", "origin", "main"], work);
    expect(pushed.code, pushed.stderr).toBe(0);
    const oid = createHash("sha256").update(content).digest("hex");
    const pointer = await cli.ok(["cat-file", "-p", "HEAD:data.bin"], work);
    expect(pointer).toContain(`oid sha256:${oid}`);
    expect(server.hooks.lfsRecorded).toContainEqual({ oid, size: content.length });

    const back = join(root.dir, "work-lfs-back");
    await cli.ok(["clone", "--quiet", url, back]);
    expect(Buffer.compare(await readFile(join(back, "data.bin")), content)).toBe(0);
  });

  it("serves gzip-encoded upload-pack requests and advertises with no-cache headers", async () => {
    const repo = await store.create("alice", "gzipped", { autoInit: { author } });
    const head = (await getBranch(repo, "main")).commit.sha;
    const base = `${server.url}/alice/gzipped.git`;

    const advert = await handleGitHttp(
      repo,
      "info/refs",
      new Request(`${base}/info/refs?service=git-upload-pack`),
    );
    expect(advert.headers.get("content-type")).toBe("application/x-git-upload-pack-advertisement");
    expect(advert.headers.get("cache-control")).toBe("no-cache, max-age=0, must-revalidate");
    const text = await advert.text();
    expect(text.startsWith("001e# service=git-upload-pack\n0000")).toBe(true);
    expect(text).toContain(`${head} refs/heads/main`);

    const want = `want ${head}\n`;
    const body = `${(want.length + 4).toString(16).padStart(4, "0")}${want}00000009done\n`;
    const response = await fetch(`${base}/git-upload-pack`, {
      method: "POST",
      headers: { "content-type": "application/x-git-upload-pack-request", "content-encoding": "gzip" },
      body: gzipSync(Buffer.from(body)),
    });
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("application/x-git-upload-pack-result");
    const bytes = Buffer.from(await response.arrayBuffer());
    expect(bytes.subarray(0, 8).toString()).toBe("0008NAK\n");
    expect(bytes.includes(Buffer.from("PACK"))).toBe(true);

    const wrongType = await handleGitHttp(
      repo,
      "git-upload-pack",
      new Request(`${base}/git-upload-pack`, { method: "POST", body: "x" }),
    );
    expect(wrongType.status).toBe(415);
    expect((await handleGitHttp(repo, "info/refs", new Request(`${base}/info/refs`))).status).toBe(404);
  });
});
