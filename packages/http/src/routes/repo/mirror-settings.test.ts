import { existsSync } from "node:fs";
import { join } from "node:path";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchSha, commitFile, type MirrorWorld, mirrorWorld } from "../../../test/mirror-world.js";
import type { TestUser } from "../../../test/support.js";

/** Settings are read where they are used, so a test may switch one for the instance it runs. */
function setSetting<S extends object>(section: S, values: Partial<S>): void {
  Object.assign(section, values);
}

describe.each(DIALECTS)("[repository] DISABLE_MIRRORS and [mirror] ENABLED on %s", (dialect) => {
  let w: MirrorWorld;
  let alice: TestUser;
  beforeAll(async () => {
    w = await mirrorWorld(dialect);
    alice = await w.t.user({ name: "alice" });
    for (const name of ["src", "target"]) {
      await w.t.call("POST", "/user/repos", {
        token: alice.token,
        body: { name, auto_init: name === "src" },
      });
    }
  });
  afterAll(() => w?.close());

  const migrateMirror = (repo_name: string) =>
    w.t.call("POST", "/repos/migrate", {
      token: alice.token,
      body: { clone_addr: `${w.url}/alice/src.git`, repo_name, mirror: true },
    });
  const addPushMirror = (sync_on_commit = false) =>
    w.t.call("POST", "/repos/alice/src/push_mirrors", {
      token: alice.token,
      body: {
        remote_address: `${w.url}/alice/target.git`,
        remote_username: alice.name,
        remote_password: "password1",
        interval: "0",
        sync_on_commit,
      },
    });

  it("refuses every new mirror while DISABLE_MIRRORS is set, creating nothing; existing mirrors keep syncing", async () => {
    expect((await migrateMirror("old-mirror")).status).toBe(201);
    const push = await addPushMirror(true);
    expect(push.status).toBe(200);
    setSetting(w.t.settings.repository, { disableMirrors: true });
    try {
      const pull = await migrateMirror("new-mirror");
      expect([pull.status, pull.json.message]).toEqual([
        403,
        "the site administrator has disabled the creation of new pull mirrors",
      ]);
      expect((await w.t.call("GET", "/repos/alice/new-mirror", { token: alice.token })).status).toBe(404);
      expect(existsSync(join(w.t.settings.repository.root, "alice", "new-mirror.git"))).toBe(false);
      const refused = await addPushMirror();
      expect([refused.status, refused.json.message]).toEqual([
        403,
        "the site administrator has disabled the creation of new push mirrors",
      ]);
      const list = await w.t.call("GET", "/repos/alice/src/push_mirrors", { token: alice.token });
      expect(list.json.map((m: { remote_name: string }) => m.remote_name)).toEqual([push.json.remote_name]);
      // A plain migration is not a mirror: still allowed.
      const plain = await w.t.call("POST", "/repos/migrate", {
        token: alice.token,
        body: { clone_addr: `${w.url}/alice/src.git`, repo_name: "plain-copy" },
      });
      expect(plain.status).toBe(201);
      const settings = await w.t.call("GET", "/settings/repository");
      expect(settings.json.mirrors_disabled).toBe(true);

      // The mirrors made before keep syncing: on request, and the push mirror on commit.
      const head = await commitFile(w.t, alice, "alice/src", "later.txt");
      await w.t.services.pushMirrors.idle();
      expect(await branchSha(w.t, alice, "alice/target", "main")).toBe(head);
      expect(
        (await w.t.call("POST", "/repos/alice/old-mirror/mirror-sync", { token: alice.token })).status,
      ).toBe(200);
      expect(await branchSha(w.t, alice, "alice/old-mirror", "main")).toBe(head);
    } finally {
      setSetting(w.t.settings.repository, { disableMirrors: false });
    }
  });

  it("with [mirror] ENABLED = false answers the mirror routes with 400 and syncs nothing", async () => {
    setSetting(w.t.settings.mirror, { enabled: false, disableNewPull: true, disableNewPush: true });
    try {
      for (const [method, path] of [
        ["POST", "/repos/alice/old-mirror/mirror-sync"],
        ["GET", "/repos/alice/src/push_mirrors"],
        ["POST", "/repos/alice/src/push_mirrors-sync"],
        ["GET", "/repos/alice/src/push_mirrors/remote_mirror_x"],
        ["DELETE", "/repos/alice/src/push_mirrors/remote_mirror_x"],
      ] as const) {
        const res = await w.t.call(method, path, { token: alice.token });
        expect([res.status, res.json.message], `${method} ${path}`).toEqual([
          400,
          "Mirror feature is disabled",
        ]);
      }
      expect((await addPushMirror()).status).toBe(400);
      expect((await migrateMirror("off-mirror")).status).toBe(403);
      const result = await w.t.services.cron.run("update_mirrors");
      expect(result?.message).toBe("mirrors are disabled ([mirror] ENABLED = false)");
      expect((await w.t.call("GET", "/settings/repository")).json.mirrors_disabled).toBe(true);
    } finally {
      setSetting(w.t.settings.mirror, { enabled: true, disableNewPull: false, disableNewPush: false });
    }
  });
});
