import { mirrors, webhooks } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchSha, commitFile, type MirrorWorld, mirrorWorld } from "../../../test/mirror-world.js";
import { usageOf } from "../../../test/repos.js";
import type { TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("pull mirrors on %s", (dialect) => {
  let w: MirrorWorld;
  let alice: TestUser;
  let bob: TestUser;
  beforeAll(async () => {
    w = await mirrorWorld(dialect);
    alice = await w.t.user({ name: "alice" });
    bob = await w.t.user({ name: "bob" });
    const src = await w.t.call("POST", "/user/repos", {
      token: alice.token,
      body: { name: "src", auto_init: true, private: true },
    });
    expect(src.status).toBe(201);
  });
  afterAll(() => w?.close());

  const migrate = (body: object, token = bob.token) => w.t.call("POST", "/repos/migrate", { token, body });
  const sourceAddr = () => `${w.url}/alice/src.git`;

  it("mirrors a private repository with stored credentials, never shown, and syncs it on request", async () => {
    const made = await migrate({
      clone_addr: sourceAddr(),
      repo_name: "copy",
      mirror: true,
      auth_username: alice.name,
      auth_password: "password1",
    });
    expect(made.status, made.text).toBe(201);
    expect(made.json).toMatchObject({
      full_name: "bob/copy",
      mirror: true,
      mirror_interval: "8h0m0s",
      original_url: sourceAddr(),
      empty: false,
    });
    expect(made.text).not.toContain("password1");
    const row = await mirrors.findMirror(w.t.services.ctx.db, made.json.id);
    expect(row?.credentials).not.toBe("");
    expect(row?.credentials).not.toContain("password1");
    expect(row?.nextUpdateAt?.getTime()).toBeGreaterThan(Date.now() + 7 * 3_600_000);

    // The source moves on: a new commit on main, a new branch and a tag; the mirror follows on sync.
    const head = await commitFile(w.t, alice, "alice/src", "one.txt");
    await commitFile(w.t, alice, "alice/src", "two.txt", { newBranch: "topic" });
    expect(
      (
        await w.t.call("POST", "/repos/alice/src/tags", {
          token: alice.token,
          body: { tag_name: "v1", target: "main" },
        })
      ).status,
    ).toBe(201);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).not.toBe(head);
    const hook = await w.t.call("POST", "/repos/bob/copy/hooks", {
      token: bob.token,
      body: {
        type: "forgejo",
        config: { url: "http://hooks.invalid/copy", content_type: "json" },
        events: ["push", "create", "delete"],
        active: true,
      },
    });
    expect(hook.status).toBe(201);
    const usedBefore = (await usageOf(w.t, "bob")).reposPublic;
    const sizeBefore = (await w.t.call("GET", "/repos/bob/copy", { token: bob.token })).json.size;
    const synced = await w.t.call("POST", "/repos/bob/copy/mirror-sync", { token: bob.token });
    expect(synced.status).toBe(200);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).toBe(head);
    // The fetched objects are measured and counted against the mirror's owner.
    expect((await usageOf(w.t, "bob")).reposPublic).toBeGreaterThan(usedBefore);
    expect((await w.t.call("GET", "/repos/bob/copy", { token: bob.token })).json.size).toBeGreaterThanOrEqual(
      sizeBefore,
    );
    expect(await branchSha(w.t, bob, "bob/copy", "topic")).toBe(
      await branchSha(w.t, alice, "alice/src", "topic"),
    );
    expect((await w.t.call("GET", "/repos/bob/copy/tags/v1", { token: bob.token })).status).toBe(200);
    const after = await w.t.call("GET", "/repos/bob/copy", { token: bob.token });
    expect(Date.parse(after.json.mirror_updated)).toBeGreaterThanOrEqual(
      Date.parse(made.json.mirror_updated),
    );

    // Webhooks get the sync as pushes and creations by the owner (Forgejo's SyncPushCommits, SyncCreateRef).
    const tasks = await webhooks.listHookTasks(w.t.services.ctx.db, hook.json.id, { page: 1, limit: 50 });
    const deliveries = tasks.items.map((task) => {
      const payload = JSON.parse(task.payload) as { ref: string; after?: string; sender: { login: string } };
      return `${task.eventType} ${payload.ref} ${payload.sender.login}${payload.after ? ` ${payload.after}` : ""}`;
    });
    expect(deliveries).toEqual(
      expect.arrayContaining([
        `push refs/heads/main bob ${head}`,
        "create refs/heads/topic bob",
        "create refs/tags/v1 bob",
      ]),
    );
    // Their repository is the mirror as the API shows it: interval, last sync and source address.
    for (const task of tasks.items) {
      expect(JSON.parse(task.payload).repository).toMatchObject({
        mirror: true,
        mirror_interval: "8h0m0s",
        original_url: sourceAddr(),
      });
      expect(Date.parse(JSON.parse(task.payload).repository.mirror_updated)).toBeGreaterThan(0);
    }

    // The sync is in the mirror's feed as Forgejo's mirror_sync_* entries, by the owner.
    const feed = await w.t.call("GET", "/repos/bob/copy/activities/feeds", { token: bob.token });
    const ops = (feed.json as { op_type: string; ref_name: string; act_user: { login: string } }[]).map(
      (a) => `${a.op_type} ${a.ref_name} ${a.act_user.login}`,
    );
    expect(ops).toEqual(
      expect.arrayContaining([
        "mirror_sync_push refs/heads/main bob",
        "mirror_sync_create refs/heads/topic bob",
        "mirror_sync_push refs/tags/v1 bob",
      ]),
    );

    // A branch removed at the source goes from the mirror (prune).
    expect((await w.t.call("DELETE", "/repos/alice/src/branches/topic", { token: alice.token })).status).toBe(
      204,
    );
    expect((await w.t.call("POST", "/repos/bob/copy/mirror-sync", { token: bob.token })).status).toBe(200);
    expect(await branchSha(w.t, bob, "bob/copy", "topic")).toBeUndefined();
  });

  it("answers mirror-sync as Forgejo: 400 for a non-mirror, 403 for readers, 401 for anonymous callers", async () => {
    const plain = await w.t.call("POST", "/user/repos", { token: bob.token, body: { name: "plain" } });
    expect(plain.status).toBe(201);
    const notMirror = await w.t.call("POST", "/repos/bob/plain/mirror-sync", { token: bob.token });
    expect([notMirror.status, notMirror.json.message]).toEqual([400, "Repository is not a mirror"]);
    const reader = await w.t.user();
    const denied = await w.t.call("POST", "/repos/bob/copy/mirror-sync", { token: reader.token });
    expect(denied.status).toBe(403);
    const anonymous = await w.t.call("POST", "/repos/bob/copy/mirror-sync");
    expect(anonymous.status).toBe(401);
  });

  it("validates mirror_interval on migrate and on edit (Go durations, the minimum, 0 disables)", async () => {
    const tooShort = await migrate({
      clone_addr: sourceAddr(),
      repo_name: "fast",
      mirror: true,
      mirror_interval: "1m",
    });
    expect(tooShort.status).toBe(422);
    expect(tooShort.json.message).toBe("MirrorInterval hit the minimum interval: 1m0s is less than 10m0s");
    expect((await w.t.call("GET", "/repos/bob/fast", { token: bob.token })).status).toBe(404);
    const never = await migrate({
      clone_addr: `${w.url}/bob/plain.git`,
      repo_name: "manual",
      mirror: true,
      mirror_interval: "0",
    });
    expect(never.status, never.text).toBe(201);
    expect(never.json).toMatchObject({ mirror_interval: "0s", empty: true });
    expect((await mirrors.findMirror(w.t.services.ctx.db, never.json.id))?.nextUpdateAt).toBeNull();

    const edit = (repo: string, body: object) =>
      w.t.call("PATCH", `/repos/${repo}`, { token: bob.token, body });
    const hourAndHalf = await edit("bob/manual", { mirror_interval: "1h30m", description: "d" });
    expect(hourAndHalf.status).toBe(200);
    expect(hourAndHalf.json).toMatchObject({ mirror_interval: "1h30m0s", description: "d" });
    for (const [interval, message] of [
      ["5m", "MirrorInterval hit the minimum interval: 5m0s is less than 10m0s"],
      ["soon", 'time: invalid duration "soon"'],
      ["30000000000h", 'time: invalid duration "30000000000h"'],
    ] as const) {
      const refused = await edit("bob/manual", { mirror_interval: interval, description: "changed" });
      expect([refused.status, refused.json.message]).toEqual([422, message]);
    }
    // A refused interval changes nothing else either.
    expect((await w.t.call("GET", "/repos/bob/manual", { token: bob.token })).json.description).toBe("d");
    const off = await edit("bob/manual", { mirror_interval: "0s" });
    expect(off.json.mirror_interval).toBe("0s");
    const notMirror = await edit("bob/plain", { mirror_interval: "1h" });
    expect([notMirror.status, notMirror.json.message]).toEqual([
      422,
      "repo is not a mirror, can not change mirror interval",
    ]);
  });

  it("syncs due mirrors from the update_mirrors cron task, and only due ones", async () => {
    const head = await commitFile(w.t, alice, "alice/src", "cron.txt");
    const copy = await w.t.call("GET", "/repos/bob/copy", { token: bob.token });
    // Not due yet (8h): the task leaves it.
    let result = await w.t.services.cron.run("update_mirrors");
    expect(result?.status).toBe("finished");
    expect(await branchSha(w.t, bob, "bob/copy", "main")).not.toBe(head);
    await mirrors.updateMirror(w.t.services.ctx.db, copy.json.id, {
      nextUpdateAt: new Date(Date.now() - 1000),
    });
    result = await w.t.services.cron.run("update_mirrors");
    expect(result?.message).toMatch(/^synced 1 pull mirror/);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).toBe(head);
    const row = await mirrors.findMirror(w.t.services.ctx.db, copy.json.id);
    expect(row?.nextUpdateAt?.getTime()).toBeGreaterThan(Date.now() + 7 * 3_600_000);
    expect(row?.lastError).toBe("");
  });

  it("moves a failing mirror's next update on, so the next run does not pick it first again", async () => {
    const gone = await w.t.call("POST", "/user/repos", {
      token: alice.token,
      body: { name: "gone", auto_init: true },
    });
    expect(gone.status).toBe(201);
    const broken = await migrate({
      clone_addr: `${w.url}/alice/gone.git`,
      repo_name: "broken",
      mirror: true,
    });
    expect(broken.status, broken.text).toBe(201);
    expect((await w.t.call("DELETE", "/repos/alice/gone", { token: alice.token })).status).toBe(204);
    const db = w.t.services.ctx.db;
    await mirrors.updateMirror(db, broken.json.id, { nextUpdateAt: new Date(Date.now() - 1000) });
    let result = await w.t.services.cron.run("update_mirrors");
    expect(result?.message).toMatch(/^synced 0 pull mirror\(s\), pushed 0 push mirror\(s\), 1 failed/);
    const row = await mirrors.findMirror(db, broken.json.id);
    expect(row?.lastError).not.toBe("");
    expect(row?.nextUpdateAt?.getTime()).toBeGreaterThan(Date.now() + 7 * 3_600_000);
    // The next run syncs only what is due: the failed mirror waits its interval like the others.
    const copy = await w.t.call("GET", "/repos/bob/copy", { token: bob.token });
    await mirrors.updateMirror(db, copy.json.id, { nextUpdateAt: new Date(Date.now() - 1000) });
    result = await w.t.services.cron.run("update_mirrors");
    expect(result?.message).toMatch(/^synced 1 pull mirror\(s\), pushed 0 push mirror\(s\), 0 failed/);
  });
});
