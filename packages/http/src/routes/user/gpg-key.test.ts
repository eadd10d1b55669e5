import { emails } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type GpgHome, gpgHome } from "../../../test/keys.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("GPG keys on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let gpg: GpgHome;
  let first: string;
  let second: string;
  let stranger: string;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    bob = await t.user();
    gpg = gpgHome();
    first = gpg.generate("Alice", `${alice.name}@example.com`);
    second = gpg.generate("Alice Work", `${alice.name}@example.com`);
    stranger = gpg.generate("Nobody", "nobody@elsewhere.test");
  });
  afterAll(async () => {
    gpg.close();
    await t.close();
  });

  it("adds every key of a keyring of two, with subkeys, and answers the first", async () => {
    const res = await t.call("POST", "/user/gpg_keys", {
      token: alice.token,
      body: { armored_public_key: gpg.exportArmored(first, second) },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      key_id: first,
      primary_key_id: "",
      emails: [{ email: `${alice.name}@example.com`, verified: true }],
      can_sign: true,
      can_certify: true,
      can_encrypt_comms: false,
      verified: false,
      expires_at: "0001-01-01T00:00:00Z",
    });
    expect(res.json.subkeys).toHaveLength(1);
    expect(res.json.subkeys[0]).toMatchObject({
      primary_key_id: first,
      can_encrypt_comms: true,
      can_sign: false,
    });
    const listed = await t.call("GET", "/user/gpg_keys", { token: alice.token });
    expect(listed.json.map((k: { key_id: string }) => k.key_id)).toEqual([first, second]);
    expect(listed.headers.get("x-total-count")).toBe("2");
    const one = await t.call("GET", `/user/gpg_keys/${res.json.id}`, { token: alice.token });
    expect(one.json.key_id).toBe(first);
    const public_ = await t.call("GET", `/users/${alice.name}/gpg_keys`);
    expect(public_.json).toHaveLength(2);
  });

  it("refuses a key id already stored, for anyone, with 422", async () => {
    const res = await t.call("POST", "/user/gpg_keys", {
      token: alice.token,
      body: { armored_public_key: gpg.exportArmored(first) },
    });
    expect(res.status).toBe(422);
    expect(res.json.message).toBe("A key with the same id already exists");
  });

  it("answers 422 (never 500) for text that is not a key", async () => {
    for (const text of [
      "garbage",
      "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\nAAAA\n-----END PGP PUBLIC KEY BLOCK-----\n",
      gpg.exportArmored(first).replace(/[A-Za-z]{20}/, "x"),
    ]) {
      const res = await t.call("POST", "/user/gpg_keys", {
        token: bob.token,
        body: { armored_public_key: text },
      });
      expect(res.status).toBe(422);
      expect(res.json.message).toMatch(/^failed to parse gpg key /);
    }
    const huge = await t.call("POST", "/user/gpg_keys", {
      token: bob.token,
      body: { armored_public_key: "x".repeat(300 * 1024) },
    });
    expect(huge.status).toBe(422);
  });

  it("refuses a key whose e-mails are none of the user's activated addresses, as Forgejo (404 with the token)", async () => {
    const res = await t.call("POST", "/user/gpg_keys", {
      token: bob.token,
      body: { armored_public_key: gpg.exportArmored(stranger) },
    });
    expect(res.status).toBe(404);
    expect(res.json.message).toMatch(
      /^None of the emails attached to the GPG key could be found\. It may still be added if you provide a valid signature for the token: [0-9a-f]{64}$/,
    );
    // An address the user has but has not activated does not count either.
    await emails.insertEmail(t.services.ctx.db, {
      userId: bob.id,
      email: "nobody@elsewhere.test",
      isPrimary: false,
      isActivated: false,
    });
    const unverified = await t.call("POST", "/user/gpg_keys", {
      token: bob.token,
      body: { armored_public_key: gpg.exportArmored(stranger) },
    });
    expect(unverified.status).toBe(404);
  });

  it("adds a key with no matching e-mail when it signs the token, and marks it verified", async () => {
    const token = (await t.call("GET", "/user/gpg_key_token", { token: bob.token })).text;
    expect(token).toMatch(/^[0-9a-f]{64}$/);
    const wrong = await t.call("POST", "/user/gpg_keys", {
      token: bob.token,
      body: {
        armored_public_key: gpg.exportArmored(stranger),
        armored_signature: gpg.sign(stranger, "not the token"),
      },
    });
    expect(wrong.status).toBe(422);
    expect(wrong.json.message).toMatch(/^The provided GPG key, signature and token do not match/);
    const res = await t.call("POST", "/user/gpg_keys", {
      token: bob.token,
      body: { armored_public_key: gpg.exportArmored(stranger), armored_signature: gpg.sign(stranger, token) },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ key_id: stranger, verified: true, emails: [] });
  });

  it("verifies an added key by a signature of the token", async () => {
    const token = (await t.call("GET", "/user/gpg_key_token", { token: alice.token })).text;
    const bad = await t.call("POST", "/user/gpg_key_verify", {
      token: alice.token,
      body: { key_id: second, armored_signature: gpg.sign(first, token) },
    });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toMatch(/^The provided GPG key, signature and token do not match/);
    const garbage = await t.call("POST", "/user/gpg_key_verify", {
      token: alice.token,
      body: { key_id: second, armored_signature: "nope" },
    });
    expect(garbage.status).toBe(422);
    const res = await t.call("POST", "/user/gpg_key_verify", {
      token: alice.token,
      body: { key_id: second, armored_signature: gpg.sign(second, token) },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ key_id: second, verified: true });
    const notMine = await t.call("POST", "/user/gpg_key_verify", {
      token: bob.token,
      body: { key_id: second, armored_signature: gpg.sign(second, token) },
    });
    expect(notMine.status).toBe(404);
  });

  it("keeps another user's key invisible and deletes one's own with its subkeys", async () => {
    const [key] = (await t.call("GET", "/user/gpg_keys", { token: alice.token })).json;
    expect((await t.call("GET", `/user/gpg_keys/${key.id}`, { token: bob.token })).status).toBe(404);
    expect((await t.call("DELETE", `/user/gpg_keys/${key.id}`, { token: bob.token })).status).toBe(404);
    expect((await t.call("GET", `/user/gpg_keys/${key.subkeys[0].id}`, { token: alice.token })).status).toBe(
      404,
    );
    expect((await t.call("DELETE", `/user/gpg_keys/${key.id}`, { token: alice.token })).status).toBe(204);
    expect((await t.call("GET", "/user/gpg_keys", { token: alice.token })).json).toHaveLength(1);
    // The key id is free again.
    const again = await t.call("POST", "/user/gpg_keys", {
      token: alice.token,
      body: { armored_public_key: gpg.exportArmored(first) },
    });
    expect(again.status).toBe(201);
  });

  it("answers the signing keys Kiln does not have as Forgejo does without one: 200, empty", async () => {
    const res = await t.call("GET", "/signing-key.gpg");
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(res.headers.get("content-type")).toMatch(/^text\/plain/);
  });
});
