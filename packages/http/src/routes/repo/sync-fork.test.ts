import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { b64, createRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("sync_fork asks again who may read the parent, on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    bob = await t.user();
  });
  afterAll(() => t?.close());

  const write = (path: string, file: string) =>
    t.call("POST", `/repos/${path}/contents/${file}`, {
      token: alice.token,
      body: { content: b64(file), message: `add ${file}` },
    });
  const tipOf = async (path: string, token = alice.token) =>
    (await t.call("GET", `/repos/${path}/branches/main`, { token })).json.commit.id as string;

  it("refuses a user removed from a private parent, answering like a parent without the branch", async () => {
    await createRepo(t, alice, "inner", { private: true });
    const inner = `${alice.name}/inner`;
    const fork = `${bob.name}/inner`;
    await t.call("PUT", `/repos/${inner}/collaborators/${bob.name}`, {
      token: alice.token,
      body: { permission: "read" },
    });
    expect((await t.call("POST", `/repos/${inner}/forks`, { token: bob.token, body: {} })).status).toBe(202);
    expect((await write(inner, "one.txt")).status).toBe(201);
    const granted = await t.call("GET", `/repos/${fork}/sync_fork`, { token: bob.token });
    expect(granted.json).toMatchObject({ allowed: true, commits_behind: 1 });

    expect(
      (await t.call("DELETE", `/repos/${inner}/collaborators/${bob.name}`, { token: alice.token })).status,
    ).toBe(204);
    expect((await write(inner, "two.txt")).status).toBe(201);
    const parentTip = await tipOf(inner);
    const forkTip = await tipOf(fork, bob.token);
    for (const path of [`/repos/${fork}/sync_fork`, `/repos/${fork}/sync_fork/main`]) {
      const info = await t.call("GET", path, { token: bob.token });
      expect(info.status, path).toBe(200);
      expect(info.json, path).toEqual({
        allowed: false,
        commits_behind: 0,
        base_commit: "",
        fork_commit: forkTip,
      });
      const sync = await t.call("POST", path, { token: bob.token });
      expect(sync.status, path).toBe(400);
      expect(sync.json.message).toBe("You can't sync this branch");
      expect(sync.text).not.toContain(parentTip);
    }
    expect(await tipOf(fork, bob.token)).toBe(forkTip);

    // Access given back: the next call sees the parent again.
    await t.call("PUT", `/repos/${inner}/collaborators/${bob.name}`, {
      token: alice.token,
      body: { permission: "read" },
    });
    expect((await t.call("GET", `/repos/${fork}/sync_fork`, { token: bob.token })).json).toMatchObject({
      allowed: true,
      commits_behind: 2,
      base_commit: parentTip,
    });
    expect((await t.call("POST", `/repos/${fork}/sync_fork`, { token: bob.token })).status).toBe(204);
    expect(await tipOf(fork, bob.token)).toBe(parentTip);
  });

  it("shows nothing of a parent made private to readers of a public fork", async () => {
    await createRepo(t, alice, "flip");
    const fork = `${bob.name}/flip`;
    expect(
      (await t.call("POST", `/repos/${alice.name}/flip/forks`, { token: bob.token, body: {} })).status,
    ).toBe(202);
    expect((await write(`${alice.name}/flip`, "later.txt")).status).toBe(201);
    const parentTip = await tipOf(`${alice.name}/flip`);
    expect((await t.call("GET", `/repos/${fork}/sync_fork`)).json.base_commit).toBe(parentTip);
    const hidden = await t.call("PATCH", `/repos/${alice.name}/flip`, {
      token: alice.token,
      body: { private: true },
    });
    expect(hidden.status).toBe(200);
    expect((await t.call("GET", `/repos/${fork}`)).status).toBe(200);
    for (const token of [undefined, bob.token]) {
      const info = await t.call("GET", `/repos/${fork}/sync_fork`, token ? { token } : {});
      expect(info.status).toBe(200);
      expect(info.json).toMatchObject({ allowed: false, commits_behind: 0, base_commit: "" });
      expect(info.text).not.toContain(parentTip);
    }
    expect((await t.call("POST", `/repos/${fork}/sync_fork`, { token: bob.token })).status).toBe(400);
  });
});
