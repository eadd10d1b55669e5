import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sshKeyPair } from "../../../test/keys.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("deploy keys on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  const key = sshKeyPair("ed25519", "ci@deploy");

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    reader = await t.user();
    outsider = await t.user();
    for (const name of ["one", "two"]) {
      const made = await t.call("POST", "/user/repos", { token: owner.token, body: { name, private: true } });
      expect(made.status).toBe(201);
    }
    const collab = await t.call("PUT", `/repos/${owner.name}/one/collaborators/${reader.name}`, {
      token: owner.token,
      body: { permission: "write" },
    });
    expect(collab.status).toBe(204);
  });
  afterAll(() => t.close());

  const keys = (repo: string) => `/repos/${owner.name}/${repo}/keys`;

  it("deploys a key read-only and shows it to the repository's administrators", async () => {
    const res = await t.call("POST", keys("one"), {
      token: owner.token,
      body: { title: "ci", key: key.publicKey, read_only: true },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({
      title: "ci",
      key: key.publicKey,
      fingerprint: key.fingerprint,
      read_only: true,
      url: `http://kiln.test/api/v1/repos/${owner.name}/one/keys/${res.json.id}`,
    });
    const listed = await t.call("GET", keys("one"), { token: owner.token });
    expect(listed.json).toHaveLength(1);
    expect(listed.json[0].repository.full_name).toBe(`${owner.name}/one`);
    const byFingerprint = await t.call(
      "GET",
      `${keys("one")}?fingerprint=${encodeURIComponent(key.fingerprint)}`,
      {
        token: owner.token,
      },
    );
    expect(byFingerprint.json).toHaveLength(1);
    expect(
      (await t.call("GET", `${keys("one")}?key_id=${res.json.key_id + 1000}`, { token: owner.token })).json,
    ).toEqual([]);
    expect((await t.call("GET", `${keys("one")}/${res.json.id}`, { token: owner.token })).json.id).toBe(
      res.json.id,
    );
  });

  it("shares one key between repositories but refuses it twice in one, and a user's key", async () => {
    const second = await t.call("POST", keys("two"), {
      token: owner.token,
      body: { title: "ci", key: key.publicKey },
    });
    expect(second.status).toBe(201);
    expect(second.json.read_only).toBe(false);
    const twice = await t.call("POST", keys("two"), {
      token: owner.token,
      body: { title: "again", key: key.publicKey },
    });
    expect(twice.status).toBe(422);
    expect(twice.json.message).toBe("This key has already been added to this repository");
    const other = sshKeyPair();
    const title = await t.call("POST", keys("two"), {
      token: owner.token,
      body: { title: "ci", key: other.publicKey },
    });
    expect(title.status).toBe(422);
    const userKey = sshKeyPair();
    expect(
      (
        await t.call("POST", "/user/keys", {
          token: outsider.token,
          body: { title: "mine", key: userKey.publicKey },
        })
      ).status,
    ).toBe(201);
    const stolen = await t.call("POST", keys("two"), {
      token: owner.token,
      body: { title: "x", key: userKey.publicKey },
    });
    expect(stolen.status).toBe(422);
    expect(stolen.json.message).toBe("Key content has been used as non-deploy key");
    const asUser = await t.call("POST", "/user/keys", {
      token: outsider.token,
      body: { title: "dk", key: key.publicKey },
    });
    expect(asUser.status).toBe(422);
    const garbage = await t.call("POST", keys("two"), {
      token: owner.token,
      body: { title: "g", key: "nope" },
    });
    expect(garbage.status).toBe(422);
  });

  it("needs repository admin: a writer is refused, an outsider does not see the repository", async () => {
    expect((await t.call("GET", keys("one"), { token: reader.token })).status).toBe(403);
    expect(
      (
        await t.call("POST", keys("one"), {
          token: reader.token,
          body: { title: "w", key: sshKeyPair().publicKey },
        })
      ).status,
    ).toBe(403);
    expect((await t.call("GET", keys("one"), { token: outsider.token })).status).toBe(404);
    expect((await t.call("GET", keys("one"))).status).toBe(401);
  });

  it("a key of another repository is 404 here; deleting keeps the other deployment", async () => {
    const [inOne] = (await t.call("GET", keys("one"), { token: owner.token })).json;
    const [inTwo] = (await t.call("GET", keys("two"), { token: owner.token })).json;
    expect((await t.call("GET", `${keys("two")}/${inOne.id}`, { token: owner.token })).status).toBe(404);
    expect((await t.call("DELETE", `${keys("two")}/${inOne.id}`, { token: owner.token })).status).toBe(404);
    expect((await t.call("DELETE", `${keys("one")}/${inOne.id}`, { token: owner.token })).status).toBe(204);
    expect((await t.call("GET", `${keys("two")}/${inTwo.id}`, { token: owner.token })).json.fingerprint).toBe(
      key.fingerprint,
    );
    expect((await t.call("DELETE", `${keys("two")}/${inTwo.id}`, { token: owner.token })).status).toBe(204);
    // Once no repository deploys it, the key is free for a user.
    expect(
      (
        await t.call("POST", "/user/keys", {
          token: outsider.token,
          body: { title: "dk", key: key.publicKey },
        })
      ).status,
    ).toBe(201);
  });
});
