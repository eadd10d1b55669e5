import { chmodSync, existsSync, writeFileSync } from "node:fs";
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
 * Git LFS file locking with the real git and git-lfs clients: alice owns `alice/art`, bob may
 * write to it. `git lfs lock`, `git lfs locks` and `git lfs unlock` (with `--force`) talk to the
 * locks API, and the server refuses a push that changes a file someone else holds a lock on,
 * even from a client that skips git-lfs's own check.
 */
describe.each(E2E_DATABASES)("Git LFS locks with git-lfs against kiln web (%s)", (name) => {
  const { env, dispose } = databaseEnv(name);
  const work = tempWorkPath();
  let server: ServerProcess;
  const clones: Record<string, string> = {};

  const lfs = (user: string, args: string[]) => git(clones[user] ?? "", ["lfs", ...args]);
  /** Commits `content` to `file` in `user`'s clone. */
  const commit = async (user: string, file: string, content: string) => {
    const dir = clones[user] ?? "";
    // git-lfs checks lockable files out read-only until their user locks them.
    if (existsSync(join(dir, file))) chmodSync(join(dir, file), 0o644);
    writeFileSync(join(dir, file), content);
    await gitOk(dir, ["add", file]);
    await gitOk(dir, ["commit", "-qm", `${user} changes ${file}`]);
  };
  /** The paths git-lfs lists as locked, with their owners. */
  const locked = async (user: string) => {
    const run = await lfs(user, ["locks", "--json"]);
    expect(run.code, run.stderr).toBe(0);
    return (JSON.parse(run.stdout) as { path: string; owner: { name: string } }[])
      .map((l) => `${l.path}:${l.owner.name}`)
      .sort();
  };

  beforeAll(async () => {
    server = await startServer(work, env);
    const tokens: Record<string, string> = {};
    for (const user of ["alice", "bob"]) tokens[user] = await createUserWithToken(server, work, env, user);
    const created = await api(server.url, "POST", "/user/repos", {
      token: tokens.alice,
      body: { name: "art", auto_init: true },
    });
    expect(created.status).toBe(201);
    const collab = await api(server.url, "PUT", "/repos/alice/art/collaborators/bob", {
      token: tokens.alice,
      body: { permission: "write" },
    });
    expect(collab.status).toBe(204);
    for (const user of ["alice", "bob"]) {
      const dir = scratch();
      await gitOk(dir, ["clone", "-q", cloneUrl(server.url, "alice", "art", user, "password1"), "c"]);
      clones[user] = join(dir, "c");
      await gitOk(clones[user], ["lfs", "install", "--local"]);
      await gitOk(clones[user], ["config", "user.name", user]);
      // git-lfs makes lockable files read-only on checkout; that chmod, run by its post-checkout
      // hook in the middle of a rebase, leaves the index's stat data stale, and git then refuses
      // the rebase's next step as "local changes would be overwritten". Locks are what is tested.
      await gitOk(clones[user], ["config", "lfs.setlockablereadonly", "false"]);
    }
    await gitOk(clones.alice ?? "", ["lfs", "track", "--lockable", "*.psd"]);
    await gitOk(clones.alice ?? "", ["add", ".gitattributes"]);
    await commit("alice", "hero.psd", "pixels v1\n");
    await commit("alice", "villain.psd", "pixels v1\n");
    await gitOk(clones.alice ?? "", ["push", "-q", "origin", "main"]);
    await gitOk(clones.bob ?? "", ["pull", "-q", "origin", "main"]);
  }, 300_000);
  afterAll(async () => {
    if (server?.process.exitCode === null) {
      server.signal("SIGTERM");
      await server.exited;
    }
    await dispose();
  });

  it("locks a file with git lfs lock and lists it with git lfs locks", async () => {
    const run = await lfs("alice", ["lock", "hero.psd"]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain("Locked hero.psd");
    expect(await locked("bob")).toEqual(["hero.psd:alice"]);
    // Someone else's lock on the same path is refused with the holder.
    const again = await lfs("bob", ["lock", "hero.psd"]);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("already created lock");
  });

  it("refuses a push that changes a file someone else has locked, even past git-lfs's own check", async () => {
    await commit("bob", "hero.psd", "pixels by bob\n");
    // git-lfs's pre-push hook refuses first, on the client.
    const checked = await git(clones.bob ?? "", ["push", "origin", "main"]);
    expect(checked.code).not.toBe(0);
    // Without the hook, the server refuses.
    const unchecked = await git(clones.bob ?? "", ["push", "--no-verify", "origin", "main"]);
    expect(unchecked.code).not.toBe(0);
    expect(unchecked.stderr).toContain("remote: file hero.psd is locked by alice");
    expect(unchecked.stderr).toContain("pre-receive hook declined");
    // The lock's holder pushes freely.
    await commit("alice", "hero.psd", "pixels v2\n");
    const own = await git(clones.alice ?? "", ["push", "origin", "main"]);
    expect(own.code, own.stderr).toBe(0);
  });

  it("unlocks only the holder's lock, or with --force a repository admin's", async () => {
    const byBob = await lfs("bob", ["unlock", "--force", "hero.psd"]);
    expect(byBob.code).not.toBe(0);
    expect(byBob.stderr).toContain("only repository admins may force");
    expect(await locked("alice")).toEqual(["hero.psd:alice"]);

    const mine = await lfs("bob", ["lock", "--json", "villain.psd"]);
    expect(mine.code, mine.stderr).toBe(0);
    // Alice names bob's lock by its id.
    const [villain] = JSON.parse(mine.stdout) as { id: string; owner: { name: string } }[];
    expect(villain?.owner).toEqual({ name: "bob" });
    const id = villain?.id ?? "";
    const notAlices = await lfs("alice", ["unlock", "--id", id]);
    expect(notAlices.code).not.toBe(0);
    expect(notAlices.stderr).toContain("use force");
    const forced = await lfs("alice", ["unlock", "--force", "--id", id]);
    expect(forced.code, forced.stderr).toBe(0);
    const unlocked = await lfs("alice", ["unlock", "hero.psd"]);
    expect(unlocked.code, unlocked.stderr).toBe(0);
    expect(await locked("bob")).toEqual([]);

    // Nothing is locked now: bob's change goes through once he has alice's commit.
    await gitOk(clones.bob ?? "", ["pull", "-q", "--rebase", "-X", "theirs", "origin", "main"]);
    const pushed = await git(clones.bob ?? "", ["push", "origin", "main"]);
    expect(pushed.code, pushed.stderr).toBe(0);
  });
});
