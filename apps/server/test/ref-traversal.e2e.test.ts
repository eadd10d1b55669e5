import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUserWithToken,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

/**
 * Exact refs against `kiln web` with the real git client: Alice's private
 * repository holds a branch and a tag; Bob, with a public repository of his own, sends every
 * form of a name that climbs out of his repository to hers. None may answer anything but
 * "not found", nor show one of her shas; and names git refuses create nothing.
 */
describe.each(E2E_DATABASES)("ref names stay inside their repository (%s)", (database) => {
  const { env, dispose } = databaseEnv(database);
  const work = tempWorkPath();
  const dir = scratch("kiln-refs-");
  let server: ServerProcess;
  const tokens: Record<string, string> = {};
  /** Alice's refs as `git ls-remote` shows them to her. */
  let secretRefs: Map<string, string>;

  const lsRemote = async (owner: string, repo: string, user: string) => {
    const out = await gitOk(dir, ["ls-remote", cloneUrl(server.url, owner, repo, user, tokens[user])]);
    return new Map(
      out
        .trim()
        .split("\n")
        .map((line) => {
          const [sha = "", ref = ""] = line.split("\t");
          return [ref, sha] as const;
        }),
    );
  };
  /** A GET as a plain client would send it (the path already URL-encoded), with the body as text. */
  const get = async (path: string, user?: string) => {
    const res = await fetch(`${server.url}/api/v1${path}`, {
      headers: user ? { Authorization: `token ${tokens[user]}` } : {},
    });
    return { status: res.status, text: await res.text() };
  };

  beforeAll(async () => {
    server = await startServer(work, env);
    for (const user of ["alice", "bob"]) {
      tokens[user] = await createUserWithToken(server, work, env, user);
    }
    const secret = await api(server.url, "POST", "/user/repos", {
      token: tokens.alice,
      body: { name: "secret", auto_init: true, private: true },
    });
    expect(secret.status).toBe(201);
    const pub = await api(server.url, "POST", "/user/repos", {
      token: tokens.bob,
      body: { name: "public", auto_init: true },
    });
    expect(pub.status).toBe(201);

    // Alice pushes a branch of her own and an annotated tag with the real git client.
    const clone = join(dir, "secret");
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "alice", "secret", "alice", tokens.alice), clone]);
    await gitOk(clone, ["checkout", "-qb", "hidden"]);
    writeFileSync(join(clone, "secret.txt"), "secret\n");
    await gitOk(clone, ["add", "secret.txt"]);
    await gitOk(clone, ["commit", "-qm", "secret"]);
    await gitOk(clone, ["tag", "-a", "v1", "-m", "secret tag"]);
    await gitOk(clone, ["push", "-q", "origin", "hidden", "v1"]);
    secretRefs = await lsRemote("alice", "secret", "alice");
    expect([...secretRefs.keys()].sort()).toEqual([
      "HEAD",
      "refs/heads/hidden",
      "refs/heads/main",
      "refs/tags/v1",
      "refs/tags/v1^{}",
    ]);
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  /** Every form of "up N directories, then into Alice's repository", for N from 1 to 6. */
  const traversals = (target: string): string[] => {
    const names: string[] = [];
    for (let depth = 1; depth <= 6; depth++) {
      const up = (dots: string, slash: string) => `${dots}${slash}`.repeat(depth);
      names.push(
        encodeURIComponent(`${"../".repeat(depth)}${target}`),
        `${up("%2e%2e", "%2F")}${target.replaceAll("/", "%2F")}`,
        `${up("%252e%252e", "%252F")}${target.replaceAll("/", "%252F")}`,
        `${up("..", "%5C")}${target.replaceAll("/", "%5C")}`,
        encodeURIComponent(`refs/${"../".repeat(depth)}${target}`),
      );
    }
    return names;
  };

  it("answers 404 to every traversal name on branches, tags, git/refs, commits, contents and raw", async () => {
    const secretShas = [...new Set(secretRefs.values())];
    expect(secretShas.length).toBe(3);
    let checked = 0;
    for (const target of ["alice/secret.git/refs/heads/hidden", "alice/secret.git/refs/tags/v1"]) {
      for (const name of traversals(target)) {
        for (const path of [
          `/branches/${name}`,
          `/tags/${name}`,
          `/git/refs/${name}`,
          `/git/refs/heads/${name}`,
          `/commits/${name}`,
          `/commits?sha=${name}`,
          `/contents?ref=${name}`,
          `/contents/README.md?ref=${name}`,
          `/raw/README.md?ref=${name}`,
        ]) {
          for (const user of ["bob", undefined]) {
            const res = await get(`/repos/bob/public${path}`, user);
            expect(res.status, `${path} as ${user ?? "anonymous"}`).toBe(404);
            for (const sha of secretShas) expect(res.text, path).not.toContain(sha);
            checked++;
          }
        }
      }
    }
    expect(checked).toBe(2 * 30 * 9 * 2);
    // Alice's refs are untouched and still hers alone.
    expect(await lsRemote("alice", "secret", "alice")).toEqual(secretRefs);
    expect((await get("/repos/alice/secret/branches/hidden", "bob")).status).toBe(404);
  });

  it("refuses to create branches and tags git refuses (422) and creates nothing a git client can see", async () => {
    const before = await lsRemote("bob", "public", "bob");
    expect([...before.keys()]).toEqual(["HEAD", "refs/heads/main"]);
    for (const name of ["HEAD", "-x", "a..b", "a.lock", "a//b", "@", "x@{y}"]) {
      const branch = await api(server.url, "POST", "/repos/bob/public/branches", {
        token: tokens.bob,
        body: { new_branch_name: name },
      });
      expect(branch.status, `branch ${name}`).toBe(422);
      expect(branch.json.message).toBe("[BranchName]: GitRefName");
      const tag = await api(server.url, "POST", "/repos/bob/public/tags", {
        token: tokens.bob,
        body: { tag_name: name },
      });
      expect(tag.status, `tag ${name}`).toBe(422);
    }
    expect(await lsRemote("bob", "public", "bob")).toEqual(before);
    // A valid name still works, and the client sees exactly it.
    const ok = await api(server.url, "POST", "/repos/bob/public/branches", {
      token: tokens.bob,
      body: { new_branch_name: "x@y" },
    });
    expect(ok.status).toBe(201);
    expect([...(await lsRemote("bob", "public", "bob")).keys()]).toEqual([
      "HEAD",
      "refs/heads/main",
      "refs/heads/x@y",
    ]);
  });

  it("refuses pushes that create branches or tags under names git refuses, and creates nothing", async () => {
    const before = await lsRemote("bob", "public", "bob");
    const clone = join(dir, "bob-public");
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "bob", "public", "bob", tokens.bob), clone]);
    for (const [target, kind, name] of [
      ["refs/heads/HEAD", "branch", "HEAD"],
      ["refs/heads/-x", "branch", "-x"],
      ["refs/heads/@", "branch", "@"],
      ["refs/tags/HEAD", "tag", "HEAD"],
    ]) {
      const pushed = await git(clone, ["push", "origin", `main:${target}`]);
      expect(pushed.code, target).not.toBe(0);
      expect(pushed.stderr, target).toContain(
        `remote: cannot create ${kind} ${name}: git refuses this ${kind} name`,
      );
      expect(pushed.stderr, target).toContain("pre-receive hook declined");
    }
    expect(await lsRemote("bob", "public", "bob")).toEqual(before);
    // The owner's other pushes still go through.
    await gitOk(clone, ["push", "-q", "origin", "main:refs/heads/fine", "main:refs/tags/v1"]);
    expect([...(await lsRemote("bob", "public", "bob")).keys()].sort()).toEqual(
      [...before.keys(), "refs/heads/fine", "refs/tags/v1"].sort(),
    );
  });
});
