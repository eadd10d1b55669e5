import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sshKeyPair } from "../../../test/keys.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("SSH keys on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  const ed = sshKeyPair("ed25519", "alice@laptop");
  const ecdsa = sshKeyPair("ecdsa");

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    bob = await t.user();
    admin = await t.user({ admin: true });
  });
  afterAll(() => t.close());

  it("adds a key and answers Forgejo's PublicKey with its SHA256 fingerprint", async () => {
    const res = await t.call("POST", "/user/keys", {
      token: alice.token,
      body: { title: "laptop", key: ed.publicKey },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      key: ed.publicKey,
      title: "laptop",
      fingerprint: ed.fingerprint,
      key_type: "user",
      url: `http://kiln.test/api/v1/user/keys/${res.json.id}`,
      user: { login: alice.name },
    });
    const listed = await t.call("GET", "/user/keys", { token: alice.token });
    expect(listed.json.map((k: { id: number }) => k.id)).toEqual([res.json.id]);
    expect(listed.headers.get("x-total-count")).toBe("1");
    expect((await t.call("GET", `/user/keys/${res.json.id}`, { token: alice.token })).json.fingerprint).toBe(
      ed.fingerprint,
    );
  });

  it("refuses duplicates, reused titles and garbage with 422 and Forgejo's messages", async () => {
    const again = await t.call("POST", "/user/keys", {
      token: alice.token,
      body: { title: "other", key: ed.publicKey },
    });
    expect(again.status).toBe(422);
    expect(again.json.message).toBe("Key content has been used as non-deploy key");
    const byBob = await t.call("POST", "/user/keys", {
      token: bob.token,
      body: { title: "x", key: ed.publicKey },
    });
    expect(byBob.status).toBe(422);
    const title = await t.call("POST", "/user/keys", {
      token: alice.token,
      body: { title: "laptop", key: ecdsa.publicKey },
    });
    expect(title.status).toBe(422);
    expect(title.json.message).toBe("Key title has been used");
    for (const key of [
      "garbage",
      "ssh-ed25519 !!!!",
      "ssh-rsa AAAAC3NzaC1lZDI1NTE5AAAAIAbcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRS",
    ]) {
      const bad = await t.call("POST", "/user/keys", { token: alice.token, body: { title: "bad", key } });
      expect(bad.status).toBe(422);
      expect(bad.json.message).toMatch(/^Invalid key content: /);
    }
    const small = sshKeyPair("rsa", "small", 2048);
    const weak = await t.call("POST", "/user/keys", {
      token: alice.token,
      body: { title: "weak", key: small.publicKey },
    });
    expect(weak.status).toBe(422);
    expect(weak.json.message).toBe("Invalid key content: key length is not enough: got 2048, needs 3071");
    const empty = await t.call("POST", "/user/keys", {
      token: alice.token,
      body: { title: "", key: ecdsa.publicKey },
    });
    expect(empty.status).toBe(422);
  });

  it("shows a user's keys to others without the owner's details, filtered by fingerprint", async () => {
    const res = await t.call("GET", `/users/${alice.name}/keys`, { token: bob.token });
    expect(res.status).toBe(200);
    expect(res.json).toHaveLength(1);
    expect(res.json[0].key_type).toBeUndefined();
    expect(res.json[0].user).toBeUndefined();
    const anonymous = await t.call("GET", `/users/${alice.name}/keys`);
    expect(anonymous.json[0].fingerprint).toBe(ed.fingerprint);
    const filtered = await t.call(
      "GET",
      `/users/${alice.name}/keys?fingerprint=${encodeURIComponent(ecdsa.fingerprint)}`,
    );
    expect(filtered.json).toEqual([]);
    const found = await t.call(
      "GET",
      `/users/${alice.name}/keys?fingerprint=${encodeURIComponent(ed.fingerprint)}`,
    );
    expect(found.json).toHaveLength(1);
  });

  it("keeps another user's key invisible: get and delete are 404", async () => {
    const [key] = (await t.call("GET", "/user/keys", { token: alice.token })).json;
    expect((await t.call("GET", `/user/keys/${key.id}`, { token: bob.token })).status).toBe(404);
    expect((await t.call("DELETE", `/user/keys/${key.id}`, { token: bob.token })).status).toBe(404);
    expect(
      (
        await t.call("GET", `/user/keys?fingerprint=${encodeURIComponent(ed.fingerprint)}`, {
          token: bob.token,
        })
      ).json,
    ).toEqual([]);
    expect(await t.call("GET", "/user/keys")).toMatchObject({ status: 401 });
  });

  it("lets a site admin add and delete a user's key", async () => {
    const made = await t.call("POST", `/admin/users/${bob.name}/keys`, {
      token: admin.token,
      body: { title: "by admin", key: ecdsa.publicKey },
    });
    expect(made.status).toBe(201);
    expect(made.json.user.login).toBe(bob.name);
    expect((await t.call("GET", "/user/keys", { token: bob.token })).json).toHaveLength(1);
    const notAdmin = await t.call("POST", `/admin/users/${bob.name}/keys`, {
      token: alice.token,
      body: { title: "x", key: sshKeyPair().publicKey },
    });
    expect(notAdmin.status).toBe(403);
    expect(
      (await t.call("DELETE", `/admin/users/${alice.name}/keys/${made.json.id}`, { token: admin.token }))
        .status,
    ).toBe(404);
    expect(
      (await t.call("DELETE", `/admin/users/${bob.name}/keys/${made.json.id}`, { token: admin.token }))
        .status,
    ).toBe(204);
    expect((await t.call("GET", "/user/keys", { token: bob.token })).json).toEqual([]);
  });

  it("deletes a key, which frees its fingerprint", async () => {
    const [key] = (await t.call("GET", "/user/keys", { token: alice.token })).json;
    expect((await t.call("DELETE", `/user/keys/${key.id}`, { token: alice.token })).status).toBe(204);
    expect((await t.call("GET", `/user/keys/${key.id}`, { token: alice.token })).status).toBe(404);
    const re = await t.call("POST", "/user/keys", {
      token: bob.token,
      body: { title: "mine now", key: ed.publicKey },
    });
    expect(re.status).toBe(201);
  });
});
