import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { repoOnDisk, usageOf } from "../../../test/repos.js";
import type { TestApp, TestUser } from "../../../test/support.js";
import { openWorld } from "../../../test/world.js";

describe.each(DIALECTS)("repository transfers over HTTP on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  beforeAll(async () => {
    // acme is the organization alice owns, which receives a repository at once.
    ({
      t,
      users: [alice, bob, admin],
    } = await openWorld(dialect, {
      settings: { repository: { maxCreationLimit: 20 } },
      users: ["alice", "bob", "root"],
      admins: ["root"],
      org: "acme",
    }));
  });
  afterAll(() => t?.close());

  const usage = (name: string) => usageOf(t, name);
  const onDisk = (owner: string, name: string) => repoOnDisk(t, owner, name);

  it("transfers a repository to an organization at once, moving its usage", async () => {
    await t.call("POST", "/user/repos", { token: alice.token, body: { name: "gift", auto_init: true } });
    const size = (await t.services.repositories.findByName(
      await t.services.users.getByName("alice"),
      "gift",
    ))!.gitSize;
    const aliceBefore = await usage("alice");
    const orgBefore = await usage("acme");
    const res = await t.call("POST", "/repos/alice/gift/transfer", {
      token: alice.token,
      body: { new_owner: "acme" },
    });
    expect(res.status).toBe(202);
    expect(res.json.full_name).toBe("acme/gift");
    expect(onDisk("acme", "gift")).toBe(true);
    expect(onDisk("alice", "gift")).toBe(false);
    expect((await usage("alice")).reposPublic).toBe(aliceBefore.reposPublic - size);
    expect((await usage("acme")).reposPublic).toBe(orgBefore.reposPublic + size);
  });

  it("hides a private target organization (404) and makes transfers to other users wait for acceptance", async () => {
    await t.call("POST", "/orgs", {
      token: admin.token,
      body: { username: "hidden", visibility: "private" },
    });
    await t.call("POST", "/user/repos", { token: bob.token, body: { name: "handover", auto_init: true } });
    const hidden = await t.call("POST", "/repos/bob/handover/transfer", {
      token: bob.token,
      body: { new_owner: "hidden" },
    });
    expect(hidden.status).toBe(404);
    expect(hidden.json.message).toBe("The new owner does not exist or cannot be found");
    const pending = await t.call("POST", "/repos/bob/handover/transfer", {
      token: bob.token,
      body: { new_owner: "alice" },
    });
    expect(pending.status).toBe(201);
    expect(pending.json.repo_transfer).toMatchObject({ recipient: { login: "alice" } });
    expect(
      (
        await t.call("POST", "/repos/bob/handover/transfer", {
          token: bob.token,
          body: { new_owner: "alice" },
        })
      ).status,
    ).toBe(409);
    expect((await t.call("POST", "/repos/bob/handover/transfer/accept", { token: bob.token })).status).toBe(
      403,
    );
    const accepted = await t.call("POST", "/repos/bob/handover/transfer/accept", { token: alice.token });
    expect(accepted.status).toBe(202);
    expect(accepted.json.full_name).toBe("alice/handover");
    await t.call("POST", "/repos/alice/handover/transfer", {
      token: alice.token,
      body: { new_owner: "bob" },
    });
    expect((await t.call("POST", "/repos/alice/handover/transfer/reject", { token: bob.token })).status).toBe(
      200,
    );
    expect(
      (await t.call("GET", "/repos/alice/handover", { token: alice.token })).json.repo_transfer,
    ).toBeUndefined();
  });
});
