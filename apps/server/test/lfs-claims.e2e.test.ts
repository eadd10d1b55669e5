import { createHash, randomBytes } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
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

const LFS = { "Content-Type": "application/vnd.git-lfs+json", Accept: "application/vnd.git-lfs+json" };

/**
 * Claiming someone else's LFS object by its oid, with the real git and git-lfs clients and plain
 * HTTP: alice keeps an object in a private repository; bob, an outsider who knows its oid, tries
 * to get it into his own public repository; carol, a reader of alice's repository, may reuse it.
 */
describe.each(E2E_DATABASES)("LFS objects cannot be claimed by oid (%s)", (name) => {
  const { env, dispose } = databaseEnv(name);
  const work = tempWorkPath();
  let server: ServerProcess;
  const tokens: Record<string, string> = {};
  const content = randomBytes(123_457);
  const oid = createHash("sha256").update(content).digest("hex");
  const size = content.length;
  const missingOid = createHash("sha256").update(randomBytes(32)).digest("hex");

  const basic = (user: string) => `Basic ${Buffer.from(`${user}:password1`).toString("base64")}`;
  /** A plain HTTP request to a git/LFS path of the server as `user`. */
  const lfs = (user: string, path: string, method: string, body?: string | Uint8Array) =>
    fetch(`${server.url}/${path}`, {
      method,
      headers: { ...LFS, Authorization: basic(user) },
      ...(body !== undefined ? { body } : {}),
    });
  const batch = async (user: string, repo: string, operation: string, objects: object[]) => {
    const res = await lfs(
      user,
      `${repo}.git/info/lfs/objects/batch`,
      "POST",
      JSON.stringify({ operation, objects }),
    );
    expect(res.status).toBe(200);
    return ((await res.json()) as { objects: Record<string, unknown>[] }).objects;
  };
  const lfsUsage = async (user: string) =>
    (await api(server.url, "GET", "/user/quota", { token: tokens[user] })).json.used.size.git.LFS as number;
  /** Commits `files` with git-lfs tracking `*.bin` and pushes them to `user/repo`. */
  const pushLfs = async (
    user: string,
    repo: string,
    files: Record<string, Buffer | string>,
    lfsFilter = true,
  ) => {
    const dir = scratch();
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, user, repo, user, "password1"), "c"]);
    const c = join(dir, "c");
    if (lfsFilter) {
      await gitOk(c, ["lfs", "install", "--local"]);
      await gitOk(c, ["lfs", "track", "*.bin"]);
    }
    for (const [file, data] of Object.entries(files)) writeFileSync(join(c, file), data);
    await gitOk(c, ["add", "."]);
    await gitOk(c, ["commit", "-qm", `files for ${repo}`]);
    return git(c, ["push", "origin", "main"]);
  };
  /** Clones `owner/repo` (anonymously unless `as` is given) and asks git-lfs for `file`'s content. */
  const pull = async (owner: string, repo: string, file: string, as?: string) => {
    const dir = scratch();
    await gitOk(dir, [
      "clone",
      "-q",
      cloneUrl(server.url, owner, repo, as, as ? "password1" : undefined),
      "c",
    ]);
    const c = join(dir, "c");
    await gitOk(c, ["lfs", "install", "--local"]);
    const pulled = await git(c, ["lfs", "pull"]);
    return { pull: pulled, data: readFileSync(join(c, file)) };
  };

  beforeAll(async () => {
    server = await startServer(work, env);
    for (const user of ["alice", "bob", "carol"]) {
      tokens[user] = await createUserWithToken(server, work, env, user);
    }
    for (const [user, repo, isPrivate] of [
      ["alice", "vault", true],
      ["bob", "claim", false],
      ["bob", "honest", true],
      ["carol", "mine", false],
    ] as const) {
      const res = await api(server.url, "POST", "/user/repos", {
        token: tokens[user],
        body: { name: repo, auto_init: true, private: isPrivate },
      });
      expect(res.status).toBe(201);
    }
    const collab = await api(server.url, "PUT", "/repos/alice/vault/collaborators/carol", {
      token: tokens.alice,
      body: { permission: "read" },
    });
    expect(collab.status).toBe(204);
    const pushed = await pushLfs("alice", "vault", { "secret.bin": content });
    expect(pushed.code, pushed.stderr).toBe(0);
    expect(await lfsUsage("alice")).toBe(size);
  });
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("asks an outsider naming the oid to upload it, as for an object that does not exist", async () => {
    const [known, missing] = await batch("bob", "bob/claim", "upload", [
      { oid, size },
      { oid: missingOid, size },
    ]);
    expect(Object.keys(known?.actions as object)).toEqual(["upload", "verify"]);
    expect(JSON.stringify(known).replaceAll(oid, "x")).toBe(
      JSON.stringify(missing).replaceAll(missingOid, "x"),
    );
    const [download] = await batch("bob", "bob/claim", "download", [{ oid, size: 1 }]);
    expect(download?.error).toEqual({ code: 404, message: "Object does not exist" });
  });

  it("refuses an outsider's upload with a wrong body, without linking or revealing the size", async () => {
    const wrong = Buffer.from(content);
    wrong[0] = (wrong[0] ?? 0) ^ 0xff;
    for (const [path, body] of [
      [`${oid}/${size}`, wrong],
      [`${oid}/${size}`, Buffer.alloc(0)],
      [`${oid}/5`, Buffer.from("short")],
      [`${oid}/${size + 1}`, Buffer.concat([content, Buffer.from("!")])],
    ] as const) {
      const res = await lfs("bob", `bob/claim.git/info/lfs/objects/${path}`, "PUT", new Uint8Array(body));
      expect(res.status).toBe(422);
      expect(await res.text()).not.toContain(String(size));
    }
    for (const s of [size, 5]) {
      const verify = await lfs(
        "bob",
        "bob/claim.git/info/lfs/verify",
        "POST",
        JSON.stringify({ oid, size: s }),
      );
      expect(verify.status).toBe(404);
      expect(await verify.text()).not.toContain(String(size));
    }
    const get = await lfs("bob", `bob/claim.git/info/lfs/objects/${oid}`, "GET");
    expect(get.status).toBe(404);
    expect(await lfsUsage("bob")).toBe(0);
  });

  it("gives nobody the object through the outsider's public repository", async () => {
    // A pointer committed without the object: git accepts it, git-lfs cannot fetch the content.
    const pointer = `version https://git-lfs.github.com/spec/v1\noid sha256:${oid}\nsize ${size}\n`;
    const pushed = await pushLfs(
      "bob",
      "claim",
      { ".gitattributes": "*.bin filter=lfs diff=lfs merge=lfs -text\n", "stolen.bin": pointer },
      false,
    );
    expect(pushed.code, pushed.stderr).toBe(0);
    const { pull: lfsPull, data } = await pull("bob", "claim", "stolen.bin");
    expect(lfsPull.code).not.toBe(0);
    expect(data.equals(content)).toBe(false);
    expect(data.toString()).toContain(`oid sha256:${oid}`);
    expect(await lfsUsage("bob")).toBe(0);
    // /media serves an LFS object only for a repository that references it: here, the pointer.
    const media = await fetch(`${server.url}/api/v1/repos/bob/claim/media/stolen.bin`);
    expect(media.status).toBe(200);
    expect(await media.text()).toBe(pointer);
  });

  it("serves the object itself through /media of the repository that holds it, the pointer through /raw", async () => {
    const auth = { Authorization: `token ${tokens.alice}` };
    const media = await fetch(`${server.url}/api/v1/repos/alice/vault/media/secret.bin`, { headers: auth });
    expect(media.status).toBe(200);
    expect(media.headers.get("Content-Length")).toBe(String(size));
    expect(Buffer.from(await media.arrayBuffer()).equals(content)).toBe(true);
    const raw = await fetch(`${server.url}/api/v1/repos/alice/vault/raw/secret.bin`, { headers: auth });
    expect(await raw.text()).toContain(`oid sha256:${oid}`);
    // The repository is private: neither answers anonymous callers or outsiders.
    expect((await fetch(`${server.url}/api/v1/repos/alice/vault/media/secret.bin`)).status).toBe(404);
    const outsider = { Authorization: `token ${tokens.bob}` };
    expect(
      (await fetch(`${server.url}/api/v1/repos/alice/vault/media/secret.bin`, { headers: outsider })).status,
    ).toBe(404);
  });

  it("takes the outsider's push of the real content, verified", async () => {
    // Nothing bob can see holds the object (alice's repository is private), so git-lfs uploads it.
    const [asked] = await batch("bob", "bob/honest", "upload", [{ oid, size }]);
    expect(Object.keys(asked?.actions as object)).toEqual(["upload", "verify"]);
    const pushed = await pushLfs("bob", "honest", { "mine-too.bin": content });
    expect(pushed.code, pushed.stderr).toBe(0);
    const { pull: lfsPull, data } = await pull("bob", "honest", "mine-too.bin", "bob");
    expect(lfsPull.code, lfsPull.stderr).toBe(0);
    expect(data.equals(content)).toBe(true);
    expect(await lfsUsage("bob")).toBe(size);
    const verify = await lfs("bob", "bob/honest.git/info/lfs/verify", "POST", JSON.stringify({ oid, size }));
    expect(verify.status).toBe(200);
  });

  it("lets a reader of a repository holding the object reuse it without upload", async () => {
    // carol sees the object only in alice's private repository, as a collaborator.
    const [object] = await batch("carol", "carol/mine", "upload", [{ oid, size }]);
    expect(object).toEqual({ oid, size, authenticated: true });
    expect(await lfsUsage("carol")).toBe(size);
    const pushed = await pushLfs("carol", "mine", { "copy.bin": content });
    expect(pushed.code, pushed.stderr).toBe(0);
    const { pull: lfsPull, data } = await pull("carol", "mine", "copy.bin");
    expect(lfsPull.code, lfsPull.stderr).toBe(0);
    expect(data.equals(content)).toBe(true);
    expect(await lfsUsage("carol")).toBe(size);
  });
});
