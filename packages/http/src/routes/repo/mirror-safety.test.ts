import { mirrors } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { gitProxy } from "../../../test/git-proxy.js";
import { branchSha, commitFile, type MirrorWorld, mirrorWorld } from "../../../test/mirror-world.js";
import type { TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("an interrupted pull mirror sync on %s", (dialect) => {
  let w: MirrorWorld;
  let proxy: Awaited<ReturnType<typeof gitProxy>>;
  let alice: TestUser;
  let bob: TestUser;
  let mirrorId: number;
  beforeAll(async () => {
    w = await mirrorWorld(dialect);
    proxy = await gitProxy(w.url);
    alice = await w.t.user({ name: "alice" });
    bob = await w.t.user({ name: "bob" });
    await w.t.call("POST", "/user/repos", { token: alice.token, body: { name: "src", auto_init: true } });
    const made = await w.t.call("POST", "/repos/migrate", {
      token: bob.token,
      body: { clone_addr: `${proxy.url}/alice/src.git`, repo_name: "copy", mirror: true },
    });
    expect(made.status, made.text).toBe(201);
    mirrorId = made.json.id;
  });
  afterAll(async () => {
    await proxy?.close();
    await w?.close();
  });

  const row = () => mirrors.findMirror(w.t.services.ctx.db, mirrorId);

  it("keeps every ref as it was and records last_error when the pack is cut off, then recovers", async () => {
    const before = await branchSha(w.t, bob, "bob/copy", "main");
    const head = await commitFile(w.t, alice, "alice/src", "cut.txt");
    await commitFile(w.t, alice, "alice/src", "new-branch.txt", { newBranch: "side" });
    proxy.setMode("break");
    const sync = await w.t.call("POST", "/repos/bob/copy/mirror-sync", { token: bob.token });
    expect(sync.status).toBe(200);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).toBe(before);
    expect(await branchSha(w.t, bob, "bob/copy", "side")).toBeUndefined();
    expect((await row())?.lastError).not.toBe("");

    proxy.setMode("pass");
    expect((await w.t.call("POST", "/repos/bob/copy/mirror-sync", { token: bob.token })).status).toBe(200);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).toBe(head);
    expect(await branchSha(w.t, bob, "bob/copy", "side")).toBeDefined();
    expect((await row())?.lastError).toBe("");
  });

  it("keeps every ref as it was when the sync is stopped (git killed) while it waits for the pack", async () => {
    const before = await branchSha(w.t, bob, "bob/copy", "main");
    const head = await commitFile(w.t, alice, "alice/src", "killed.txt");
    proxy.setMode("hang");
    const stop = new AbortController();
    const asked = proxy.packRequested();
    const running = w.t.services.pullMirrors.sync(mirrorId, stop.signal);
    await asked;
    stop.abort();
    const outcome = await running;
    expect(outcome.ok).toBe(false);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).toBe(before);
    expect((await row())?.lastError).toContain("stopped");

    proxy.setMode("pass");
    expect((await w.t.services.pullMirrors.sync(mirrorId)).ok).toBe(true);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).toBe(head);
  });

  it("refuses a dumb HTTP answer before touching any ref (an empty repository there would prune everything)", async () => {
    const before = await branchSha(w.t, bob, "bob/copy", "main");
    expect(before).toBeDefined();
    proxy.setMode("dumb");
    expect((await w.t.call("POST", "/repos/bob/copy/mirror-sync", { token: bob.token })).status).toBe(200);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).toBe(before);
    expect((await row())?.lastError).toBe("the remote did not answer with git's smart HTTP protocol");
    // A source that is gone fails the same way, keeping the mirror as it was.
    proxy.setMode("pass");
    await w.t.call("DELETE", "/repos/alice/src", { token: alice.token });
    expect((await w.t.call("POST", "/repos/bob/copy/mirror-sync", { token: bob.token })).status).toBe(200);
    expect(await branchSha(w.t, bob, "bob/copy", "main")).toBe(before);
    expect((await row())?.lastError).not.toBe("");
  });
});
