import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cloneUrl, git, gitOk, scratch } from "./git-clients.js";
import {
  api,
  createUser,
  databaseEnv,
  E2E_DATABASES,
  type ServerProcess,
  startServer,
  tempWorkPath,
} from "./kiln-process.js";

describe.each(E2E_DATABASES)(
  "pull and push mirrors between Kiln repositories with the real git client (%s)",
  (name) => {
    let server: ServerProcess;
    let dispose: () => Promise<void>;
    let owner: Awaited<ReturnType<typeof createUser>>;
    let follower: Awaited<ReturnType<typeof createUser>>;
    beforeAll(async () => {
      const db = databaseEnv(name, {
        KILN__MIGRATIONS__ALLOW_LOCALNETWORKS: "true",
        KILN__SECURITY__SECRET_KEY: "e2e-mirror-secret",
      });
      dispose = db.dispose;
      const work = tempWorkPath();
      server = await startServer(work, db.env);
      owner = await createUser(server, work, "owner", db.env);
      follower = await createUser(server, work, "follower", db.env);
      for (const [user, repo] of [
        [owner, "src"],
        [follower, "target"],
      ] as const) {
        const made = await api(server.url, "POST", "/user/repos", {
          token: user.token,
          body: { name: repo, auto_init: repo === "src", private: true },
        });
        expect(made.status).toBe(201);
      }
    });
    afterAll(async () => {
      if (server && server.process.exitCode === null) {
        server.signal("SIGTERM");
        await server.exited;
      }
      await dispose?.();
    });

    const branchSha = async (token: string, repo: string, branch: string) => {
      const res = await api(server.url, "GET", `/repos/${repo}/branches/${branch}`, { token });
      return res.status === 200 ? (res.json.commit.id as string) : undefined;
    };

    it("mirrors a private repository, follows a commit pushed with git after mirror-sync, and stays read-only", async () => {
      const made = await api(server.url, "POST", "/repos/migrate", {
        token: follower.token,
        body: {
          clone_addr: `${server.url}/owner/src.git`,
          repo_name: "copy",
          mirror: true,
          auth_username: "owner",
          auth_password: "password1",
        },
      });
      expect(made.status).toBe(201);
      expect(made.json).toMatchObject({ mirror: true, mirror_interval: "8h0m0s", private: false });

      const work = join(scratch("kiln-mirror-e2e-"), "src");
      await gitOk(process.cwd(), [
        "clone",
        "-q",
        cloneUrl(server.url, "owner", "src", "owner", "password1"),
        work,
      ]);
      await gitOk(work, ["commit", "-q", "--allow-empty", "-m", "pushed with git"]);
      await gitOk(work, ["push", "-q", "origin", "HEAD:main"]);
      const head = (await gitOk(work, ["rev-parse", "HEAD"])).trim();
      expect(await branchSha(follower.token, "follower/copy", "main")).not.toBe(head);

      const synced = await api(server.url, "POST", "/repos/follower/copy/mirror-sync", {
        token: follower.token,
      });
      expect(synced.status).toBe(200);
      expect(await branchSha(follower.token, "follower/copy", "main")).toBe(head);
      const commit = await api(server.url, "GET", `/repos/follower/copy/git/commits/${head}`, {
        token: follower.token,
      });
      expect(commit.json.commit.message.trim()).toBe("pushed with git");

      // The mirror clones like any repository, and refuses pushes.
      const mirrorClone = join(scratch("kiln-mirror-e2e-"), "copy");
      await gitOk(process.cwd(), [
        "clone",
        "-q",
        cloneUrl(server.url, "follower", "copy", "follower", "password1"),
        mirrorClone,
      ]);
      expect((await gitOk(mirrorClone, ["rev-parse", "HEAD"])).trim()).toBe(head);
      await gitOk(mirrorClone, ["commit", "-q", "--allow-empty", "-m", "not welcome"]);
      const refused = await git(mirrorClone, ["push", "-q", "origin", "HEAD:main"]);
      expect(refused.code).not.toBe(0);
      expect(await branchSha(follower.token, "follower/copy", "main")).toBe(head);
    });

    it("pushes to a push mirror on another Kiln repository with its credentials", async () => {
      const added = await api(server.url, "POST", "/repos/owner/src/push_mirrors", {
        token: owner.token,
        body: {
          remote_address: `${server.url}/follower/target.git`,
          remote_username: "follower",
          remote_password: "password1",
          interval: "8h",
        },
      });
      expect(added.status).toBe(200);
      expect(await branchSha(follower.token, "follower/target", "main")).toBeUndefined();
      const synced = await api(server.url, "POST", "/repos/owner/src/push_mirrors-sync", {
        token: owner.token,
      });
      expect(synced.status).toBe(200);
      const mirror = await api(server.url, "GET", `/repos/owner/src/push_mirrors/${added.json.remote_name}`, {
        token: owner.token,
      });
      expect(mirror.json.last_error).toBe("");
      expect(await branchSha(follower.token, "follower/target", "main")).toBe(
        await branchSha(owner.token, "owner/src", "main"),
      );
      const remote = await gitOk(process.cwd(), [
        "ls-remote",
        cloneUrl(server.url, "follower", "target", "follower", "password1"),
        "refs/heads/main",
      ]);
      expect(remote.split("\t")[0]).toBe(await branchSha(owner.token, "owner/src", "main"));
    });

    it("never writes the mirrors' passwords to the log", () => {
      expect(JSON.stringify(server.logs)).not.toContain("password1");
    });
  },
);
