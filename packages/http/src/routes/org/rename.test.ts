import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("renames and their redirects on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  let admin: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    member = await t.user();
    outsider = await t.user();
    admin = await t.user({ admin: true });
  });
  afterAll(() => t?.close());

  const makeOrg = async (name: string) => {
    expect((await t.call("POST", "/orgs", { token: owner.token, body: { username: name } })).status).toBe(
      201,
    );
    for (const [repo, isPrivate] of [
      ["open", false],
      ["closed", true],
    ] as const) {
      const made = await t.call("POST", `/orgs/${name}/repos`, {
        token: owner.token,
        body: { name: repo, private: isPrivate, auto_init: true },
      });
      expect(made.status).toBe(201);
    }
  };

  it("renames an organization as its owner, with Forgejo's rules and statuses", async () => {
    const org = `guild-${owner.id}`;
    await makeOrg(org);
    const teams = await t.call("GET", `/orgs/${org}/teams`, { token: owner.token });
    const readers = await t.call("POST", `/orgs/${org}/teams`, {
      token: owner.token,
      body: { name: "readers", permission: "read", includes_all_repositories: true, units: ["repo.code"] },
    });
    expect(teams.status).toBe(200);
    expect(readers.status).toBe(201);
    await t.call("PUT", `/teams/${readers.json.id}/members/${member.name}`, { token: owner.token });
    const rename = (name: string, token = owner.token, from = org) =>
      t.call("POST", `/orgs/${from}/rename`, { token, body: { new_name: name } });
    expect((await rename("x", member.token)).status).toBe(403);
    expect((await rename("x", outsider.token)).status).toBe(403);
    const taken = await rename(outsider.name);
    expect(taken.status).toBe(422);
    expect(taken.json.message).toBe(`user already exists [name: ${outsider.name}]`);
    expect((await rename("api")).status).toBe(422);
    expect((await rename("bad name")).status).toBe(422);
    expect((await rename("a".repeat(41))).status).toBe(422);

    const renamed = `hall-${owner.id}`;
    expect((await rename(renamed)).status).toBe(204);
    expect((await t.call("GET", `/orgs/${renamed}`)).json.username).toBe(renamed);
    const repo = await t.call("GET", `/repos/${renamed}/open/contents/README.md`);
    expect(repo.status).toBe(200);
    const store = t.services.repositories.store;
    expect(await store.exists(renamed, "closed")).toBe(true);
    expect(await store.exists(org, "closed")).toBe(false);

    // The old name redirects (307, Forgejo's RedirectToUser/RedirectToRepo), query kept.
    const old = await t.call("GET", `/orgs/${org}/repos?limit=1`);
    expect(old.status).toBe(307);
    expect(old.headers.get("Location")).toBe(`/api/v1/orgs/${renamed}/repos?limit=1`);
    const oldRepo = await t.call("GET", `/repos/${org}/open/contents/README.md?ref=main`);
    expect(oldRepo.status).toBe(307);
    expect(oldRepo.headers.get("Location")).toBe(`/api/v1/repos/${renamed}/open/contents/README.md?ref=main`);
    // A private repository's new name is told only to those who may read it.
    expect((await t.call("GET", `/repos/${org}/closed`)).status).toBe(404);
    expect((await t.call("GET", `/repos/${org}/closed`, { token: outsider.token })).status).toBe(404);
    const seen = await t.call("GET", `/repos/${org}/closed`, { token: member.token });
    expect(seen.status).toBe(307);
    expect(seen.headers.get("Location")).toBe(`/api/v1/repos/${renamed}/closed`);

    // A new account taking the old name ends the redirect.
    expect((await t.call("POST", "/orgs", { token: outsider.token, body: { username: org } })).status).toBe(
      201,
    );
    expect((await t.call("GET", `/repos/${org}/open`)).status).toBe(404);
    expect((await t.call("GET", `/orgs/${org}`)).json.username).toBe(org);
  });

  it("renaming back to the old name takes the redirect away; letter case alone moves nothing", async () => {
    const org = `cycle-${owner.id}`;
    await makeOrg(org);
    const there = `cycled-${owner.id}`;
    expect(
      (await t.call("POST", `/orgs/${org}/rename`, { token: owner.token, body: { new_name: there } })).status,
    ).toBe(204);
    expect(
      (await t.call("POST", `/orgs/${there}/rename`, { token: owner.token, body: { new_name: org } })).status,
    ).toBe(204);
    expect((await t.call("GET", `/repos/${org}/open`)).status).toBe(200);
    const back = await t.call("GET", `/repos/${there}/open`);
    expect(back.status).toBe(307);
    expect(back.headers.get("Location")).toBe(`/api/v1/repos/${org}/open`);
    expect(
      (
        await t.call("POST", `/orgs/${org}/rename`, {
          token: owner.token,
          body: { new_name: org.toUpperCase() },
        })
      ).status,
    ).toBe(204);
    expect((await t.call("GET", `/repos/${org}/open/contents/README.md`)).status).toBe(200);
  });

  it("a repository renamed through PATCH or transferred leaves its old name redirecting", async () => {
    const made = await t.call("POST", "/user/repos", {
      token: owner.token,
      body: { name: "before", auto_init: true },
    });
    expect(made.status).toBe(201);
    const patched = await t.call("PATCH", `/repos/${owner.name}/before`, {
      token: owner.token,
      body: { name: "after" },
    });
    expect(patched.status).toBe(200);
    expect(await t.services.repositories.store.exists(owner.name, "after")).toBe(true);
    const old = await t.call("GET", `/repos/${owner.name}/before/branches`);
    expect(old.status).toBe(307);
    expect(old.headers.get("Location")).toBe(`/api/v1/repos/${owner.name}/after/branches`);

    // A site admin's transfer is done at once (202).
    const transferred = await t.call("POST", `/repos/${owner.name}/after/transfer`, {
      token: admin.token,
      body: { new_owner: outsider.name },
    });
    expect(transferred.status).toBe(202);
    expect(await t.services.repositories.store.exists(outsider.name, "after")).toBe(true);
    expect(await t.services.repositories.store.exists(owner.name, "after")).toBe(false);
    for (const name of ["before", "after"]) {
      const moved = await t.call("GET", `/repos/${owner.name}/${name}`);
      expect(moved.status).toBe(307);
      expect(moved.headers.get("Location")).toBe(`/api/v1/repos/${outsider.name}/after`);
    }
    // A new repository of that name takes it back.
    const again = await t.call("POST", "/user/repos", { token: owner.token, body: { name: "after" } });
    expect(again.status).toBe(201);
    expect((await t.call("GET", `/repos/${owner.name}/after`)).json.owner.login).toBe(owner.name);
  });

  it("the admin rename leaves the old user name redirecting too", async () => {
    const u = await t.user();
    await t.call("POST", "/user/repos", { token: u.token, body: { name: "kept", auto_init: true } });
    const newName = `moved-${u.id}`;
    const res = await t.call("POST", `/admin/users/${u.name}/rename`, {
      token: admin.token,
      body: { new_username: newName },
    });
    expect(res.status).toBe(204);
    const old = await t.call("GET", `/repos/${u.name}/kept`);
    expect(old.status).toBe(307);
    expect(old.headers.get("Location")).toBe(`/api/v1/repos/${newName}/kept`);
    const user = await t.call("GET", `/users/${u.name}/repos`);
    expect(user.status).toBe(307);
    expect(user.headers.get("Location")).toBe(`/api/v1/users/${newName}/repos`);
  });
});
