import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { branchSha, commitFile, type MirrorWorld, mirrorWorld } from "../../../test/mirror-world.js";
import { openTestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("push mirrors on %s", (dialect) => {
  let w: MirrorWorld;
  let alice: TestUser;
  let carol: TestUser;
  beforeAll(async () => {
    w = await mirrorWorld(dialect);
    alice = await w.t.user({ name: "alice" });
    carol = await w.t.user({ name: "carol" });
    for (const [user, name] of [
      [alice, "src"],
      [carol, "target"],
      [carol, "target2"],
    ] as const) {
      const res = await w.t.call("POST", "/user/repos", {
        token: user.token,
        body: { name, auto_init: name === "src", private: name !== "src" },
      });
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => w?.close());

  const add = (body: object, token = alice.token) =>
    w.t.call("POST", "/repos/alice/src/push_mirrors", { token, body });

  it("adds a push mirror with credentials never shown, pushes branches and tags on request, lists, gets and deletes it", async () => {
    const made = await add({
      remote_address: `${w.url}/carol/target.git`,
      remote_username: carol.name,
      remote_password: "password1",
      interval: "8h",
    });
    expect(made.status, made.text).toBe(200);
    expect(made.json).toMatchObject({
      repo_name: "src",
      remote_address: `${w.url}/carol/target.git`,
      last_update: null,
      last_error: "",
      interval: "8h0m0s",
      sync_on_commit: false,
      public_key: "",
    });
    expect(made.json.remote_name).toMatch(/^remote_mirror_[0-9A-Za-z]{10}$/);
    expect(made.text).not.toContain("password1");
    const name = made.json.remote_name as string;

    await commitFile(w.t, alice, "alice/src", "feature.txt", { newBranch: "feature" });
    const tag = await w.t.call("POST", "/repos/alice/src/tags", {
      token: alice.token,
      body: { tag_name: "v1", target: "main" },
    });
    expect(tag.status).toBe(201);
    expect(await branchSha(w.t, carol, "carol/target", "main")).toBeUndefined();
    const synced = await w.t.call("POST", "/repos/alice/src/push_mirrors-sync", { token: alice.token });
    expect(synced.status).toBe(200);
    expect(await branchSha(w.t, carol, "carol/target", "main")).toBe(
      await branchSha(w.t, alice, "alice/src", "main"),
    );
    expect(await branchSha(w.t, carol, "carol/target", "feature")).toBe(
      await branchSha(w.t, alice, "alice/src", "feature"),
    );
    expect((await w.t.call("GET", "/repos/carol/target/tags/v1", { token: carol.token })).status).toBe(200);
    const got = await w.t.call("GET", `/repos/alice/src/push_mirrors/${name}`, { token: alice.token });
    expect(got.status).toBe(200);
    expect(got.json.last_error).toBe("");
    expect(Date.parse(got.json.last_update)).toBeGreaterThan(0);

    // A branch deleted at the source goes from the push mirror too.
    expect(
      (await w.t.call("DELETE", "/repos/alice/src/branches/feature", { token: alice.token })).status,
    ).toBe(204);
    await w.t.call("POST", "/repos/alice/src/push_mirrors-sync", { token: alice.token });
    expect(await branchSha(w.t, carol, "carol/target", "feature")).toBeUndefined();

    const list = await w.t.call("GET", "/repos/alice/src/push_mirrors", { token: alice.token });
    expect(list.status).toBe(200);
    expect(list.headers.get("x-total-count")).toBe("1");
    expect(list.json.map((m: { remote_name: string }) => m.remote_name)).toEqual([name]);

    expect(
      (await w.t.call("DELETE", `/repos/alice/src/push_mirrors/${name}`, { token: alice.token })).status,
    ).toBe(204);
    expect(
      (await w.t.call("GET", `/repos/alice/src/push_mirrors/${name}`, { token: alice.token })).status,
    ).toBe(404);
    expect(
      (await w.t.call("DELETE", `/repos/alice/src/push_mirrors/${name}`, { token: alice.token })).status,
    ).toBe(404);
  });

  it("records a failed push in last_error and answers 200, never a server error", async () => {
    const made = await add({
      remote_address: `${w.url}/carol/target2.git`,
      remote_username: carol.name,
      remote_password: "wrong password",
      interval: "0",
    });
    expect(made.status).toBe(200);
    const synced = await w.t.call("POST", "/repos/alice/src/push_mirrors-sync", { token: alice.token });
    expect(synced.status).toBe(200);
    const got = await w.t.call("GET", `/repos/alice/src/push_mirrors/${made.json.remote_name}`, {
      token: alice.token,
    });
    expect(got.json.last_error).not.toBe("");
    expect(got.json.last_error).not.toContain("wrong password");
    expect(Date.parse(got.json.last_update)).toBeGreaterThan(0);
    expect(await branchSha(w.t, carol, "carol/target2", "main")).toBeUndefined();
    await w.t.call("DELETE", `/repos/alice/src/push_mirrors/${made.json.remote_name}`, {
      token: alice.token,
    });
  });

  it("pushes after each push to the repository when sync_on_commit is set, in the background", async () => {
    const made = await add({
      remote_address: `${w.url}/carol/target2.git`,
      remote_username: carol.name,
      remote_password: "password1",
      interval: "0",
      sync_on_commit: true,
    });
    expect(made.status).toBe(200);
    const head = await commitFile(w.t, alice, "alice/src", "on-commit.txt");
    await w.t.services.pushMirrors.idle();
    expect(await branchSha(w.t, carol, "carol/target2", "main")).toBe(head);
    await w.t.call("DELETE", `/repos/alice/src/push_mirrors/${made.json.remote_name}`, {
      token: alice.token,
    });
  });

  it("pushes due push mirrors from the update_mirrors cron task", async () => {
    const made = await add({
      remote_address: `${w.url}/carol/target.git`,
      remote_username: carol.name,
      remote_password: "password1",
      interval: "10m",
    });
    // Never synced: due at once, as Forgejo's zero last_update.
    const head = await commitFile(w.t, alice, "alice/src", "cron.txt");
    const result = await w.t.services.cron.run("update_mirrors");
    expect(result?.message).toContain("pushed 1 push mirror(s)");
    expect(await branchSha(w.t, carol, "carol/target", "main")).toBe(head);
    const got = await w.t.call("GET", `/repos/alice/src/push_mirrors/${made.json.remote_name}`, {
      token: alice.token,
    });
    expect([got.json.last_error, Date.parse(got.json.last_update) > 0]).toEqual(["", true]);
    const again = await w.t.services.cron.run("update_mirrors");
    expect(again?.message).toContain("pushed 0 push mirror(s)");
  });

  it.each([
    [{ remote_address: "http://127.0.0.1:1/x.git", interval: "soon" }, 'time: invalid duration "soon"'],
    [{ remote_address: "http://127.0.0.1:1/x.git" }, 'time: invalid duration ""'],
    [
      { remote_address: "http://127.0.0.1:1/x.git", interval: "1m" },
      "interval 1m0s is less than the minimum interval 10m0s",
    ],
    [
      { remote_address: "git://example.com/x.git", interval: "0" },
      "Invalid URL: only http:// and https:// URLs can be migrated.",
    ],
    [
      { remote_address: "/srv/git/x.git", interval: "0" },
      "Invalid URL: a mirror needs an http:// or https:// address.",
    ],
    [
      { remote_address: "http://127.0.0.1:1/x.git", interval: "0", use_ssh: true },
      "SSH authentication not available.",
    ],
  ])("refuses %j with 400, adding nothing", async (body, message) => {
    const res = await add(body);
    expect([res.status, res.json.message]).toEqual([400, message]);
  });

  it("is for repository admins only, and refuses disallowed hosts by default", async () => {
    expect(
      (await add({ remote_address: `${w.url}/carol/target.git`, interval: "0" }, carol.token)).status,
    ).toBe(403);
    expect((await w.t.call("GET", "/repos/alice/src/push_mirrors", { token: carol.token })).status).toBe(403);
    expect(
      (await w.t.call("POST", "/repos/alice/src/push_mirrors-sync", { token: carol.token })).status,
    ).toBe(403);
    expect((await w.t.call("GET", "/repos/carol/target/push_mirrors", { token: alice.token })).status).toBe(
      404,
    );
    const strict = await openTestApp(dialect);
    try {
      const u = await strict.user();
      await strict.call("POST", "/user/repos", { token: u.token, body: { name: "r" } });
      for (const address of ["http://127.0.0.1:3000/o/r.git", "http://169.254.169.254/latest"]) {
        const res = await strict.call("POST", `/repos/${u.name}/r/push_mirrors`, {
          token: u.token,
          body: { remote_address: address, interval: "0" },
        });
        expect([res.status, res.json.message]).toEqual([400, "You can not import from disallowed hosts."]);
      }
      const list = await strict.call("GET", `/repos/${u.name}/r/push_mirrors`, { token: u.token });
      expect(list.json).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  it("refuses an interval past Go's largest duration, and a 21st push mirror of a repository", async () => {
    const repo = await w.t.call("POST", "/user/repos", { token: alice.token, body: { name: "many" } });
    expect(repo.status).toBe(201);
    const addTo = (body: object) =>
      w.t.call("POST", "/repos/alice/many/push_mirrors", { token: alice.token, body });
    const mirror = { remote_address: `${w.url}/carol/target2.git`, interval: "0" };
    const huge = await addTo({ ...mirror, interval: "30000000000h" });
    expect([huge.status, huge.json.message]).toEqual([400, 'time: invalid duration "30000000000h"']);
    for (let i = 0; i < 20; i++) expect((await addTo(mirror)).status).toBe(200);
    const more = await addTo(mirror);
    expect([more.status, more.json.message]).toEqual([422, "a repository can have at most 20 push mirrors"]);
    const list = await w.t.call("GET", "/repos/alice/many/push_mirrors?limit=1", { token: alice.token });
    expect(list.headers.get("x-total-count")).toBe("20");
  });

  it("lets only one of several racing additions take a repository's last push mirror place", async () => {
    const repo = await w.t.call("POST", "/user/repos", { token: alice.token, body: { name: "racing" } });
    expect(repo.status).toBe(201);
    const mirror = { remote_address: `${w.url}/carol/target2.git`, interval: "0" };
    const addTo = () =>
      w.t.call("POST", "/repos/alice/racing/push_mirrors", { token: alice.token, body: mirror });
    for (let i = 0; i < 19; i++) expect((await addTo()).status).toBe(200);
    const raced = await Promise.all(Array.from({ length: 5 }, addTo));
    expect(raced.map((r) => r.status).sort()).toEqual([200, 422, 422, 422, 422]);
    const list = await w.t.call("GET", "/repos/alice/racing/push_mirrors?limit=1", { token: alice.token });
    expect(list.headers.get("x-total-count")).toBe("20");
  });
});
