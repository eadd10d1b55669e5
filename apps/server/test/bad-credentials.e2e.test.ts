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

/**
 * Wrong credentials are refused (401), never taken as an anonymous request, even where anonymous
 * callers may read: `git ls-remote` and git-lfs against a public repository with a wrong token or
 * password in the Authorization header (how CI checkouts pass a token: `http.extraHeader`).
 */
describe.each(E2E_DATABASES)("bad credentials with git and git-lfs against kiln web (%s)", (name) => {
  const { env, dispose } = databaseEnv(name);
  const work = tempWorkPath();
  let server: ServerProcess;
  let token: string;
  const content = "large file content\n".repeat(1000);

  const header = (value: string) => ["-c", `http.extraHeader=Authorization: ${value}`];
  const basic = (user: string, secret: string) =>
    `Basic ${Buffer.from(`${user}:${secret}`).toString("base64")}`;
  const lsRemote = (url: string, extra: string[] = []) => git(scratch(), [...extra, "ls-remote", url]);

  beforeAll(async () => {
    server = await startServer(work, env);
    token = await createUserWithToken(server, work, env, "alice");
    for (const [repo, isPrivate] of [
      ["pub", false],
      ["priv", true],
    ] as const) {
      const res = await api(server.url, "POST", "/user/repos", {
        token,
        body: { name: repo, auto_init: true, private: isPrivate },
      });
      expect(res.status).toBe(201);
    }
    const dir = scratch();
    await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "alice", "pub", "alice", "password1"), "c"]);
    const c = join(dir, "c");
    await gitOk(c, ["lfs", "install", "--local"]);
    await gitOk(c, ["lfs", "track", "*.bin"]);
    writeFileSync(join(c, "big.bin"), content);
    await gitOk(c, ["add", "."]);
    await gitOk(c, ["commit", "-qm", "an LFS file"]);
    await gitOk(c, ["push", "-q", "origin", "main"]);
  }, 300_000);
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("refuses git ls-remote on a public repository with a wrong token or password, not as anonymous", async () => {
    const url = `${server.url}/alice/pub.git`;
    const anonymous = await lsRemote(url);
    expect(anonymous.code, anonymous.stderr).toBe(0);
    expect(anonymous.stdout).toContain("refs/heads/main");
    // The right credentials, in every form, are served.
    for (const good of [
      `token ${token}`,
      `Bearer ${token}`,
      basic("alice", "password1"),
      basic("alice", token),
    ]) {
      const run = await lsRemote(url, header(good));
      expect(run.code, `${good}: ${run.stderr}`).toBe(0);
      expect(run.stdout).toContain("refs/heads/main");
    }
    // Wrong ones are 401: git gets no refs and, with prompts off, gives up.
    for (const bad of [
      "token 0123456789abcdef0123456789abcdef01234567",
      "Bearer wrong",
      basic("alice", "wrong-password"),
      basic("alice", "0123456789abcdef0123456789abcdef01234567"),
      basic("0123456789abcdef0123456789abcdef01234567", "x-oauth-basic"),
      basic("nobody", "password1"),
    ]) {
      const run = await lsRemote(url, [...header(bad), "-c", "credential.helper="]);
      expect(run.code, bad).not.toBe(0);
      expect(run.stdout).toBe("");
      expect(run.stderr).toMatch(/could not read Username|Authentication failed|401/);
    }
  });

  it("checks the credentials git sends when challenged, as a password or a token in the URL", async () => {
    const wrong = await lsRemote(cloneUrl(server.url, "alice", "priv", "alice", "wrong-password"));
    expect(wrong.code).not.toBe(0);
    expect(wrong.stderr).toContain("Authentication failed");
    const right = await lsRemote(cloneUrl(server.url, "alice", "priv", "alice", token));
    expect(right.code, right.stderr).toBe(0);
    // On a public repository git reads without sending them: the server never sees the password,
    // so there is nothing to refuse (Forgejo answers the same way).
    const unsent = await lsRemote(cloneUrl(server.url, "alice", "pub", "alice", "wrong-password"));
    expect(unsent.code, unsent.stderr).toBe(0);
  });

  it("refuses git-lfs downloads from a public repository with a wrong token", async () => {
    const clone = async () => {
      const dir = scratch();
      await gitOk(dir, ["clone", "-q", `${server.url}/alice/pub.git`, "c"], { GIT_LFS_SKIP_SMUDGE: "1" });
      const c = join(dir, "c");
      await gitOk(c, ["lfs", "install", "--local"]);
      return c;
    };
    const anonymous = await clone();
    const pulled = await git(anonymous, ["lfs", "pull"]);
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(readFileSync(join(anonymous, "big.bin"), "utf8")).toBe(content);
    // The same download with a wrong token is refused, not served as to the anonymous clone.
    const wrong = await clone();
    const refused = await git(wrong, [
      ...header("token 0123456789abcdef0123456789abcdef01234567"),
      "lfs",
      "pull",
    ]);
    expect(refused.code).not.toBe(0);
    expect(readFileSync(join(wrong, "big.bin"), "utf8")).toContain("git-lfs.github.com/spec");
  });
});
