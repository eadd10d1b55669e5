import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bulkUsers, openTestApp, type TestApp } from "../../../test/support.js";

describe.each(DIALECTS)("user administration over HTTP on %s", (dialect) => {
  let t: TestApp;
  let admin: Awaited<ReturnType<TestApp["user"]>>;
  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
  });
  afterAll(() => t?.close());

  it("creates users (201) and refuses duplicates and invalid input with Forgejo's statuses", async () => {
    const body = {
      username: "quota-user-1",
      email: "api+quota-user-1@example.com",
      password: "password",
      must_change_password: false,
    };
    const created = await t.call("POST", "/admin/users", { token: admin.token, body });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      login: "quota-user-1",
      email: "api+quota-user-1@example.com",
      is_admin: false,
    });
    const dup = await t.call("POST", "/admin/users", { token: admin.token, body });
    expect(dup.status).toBe(422);
    expect(dup.json.message).toBe("user already exists [name: quota-user-1]");
    expect(
      (await t.call("POST", "/admin/users", { token: admin.token, body: { username: "x1" } })).json.message,
    ).toBe("[Email]: Required");
    expect(
      (await t.call("POST", "/admin/users", { token: admin.token, body: { ...body, username: "api" } }))
        .status,
    ).toBe(422);
    expect(
      (
        await t.call("POST", "/admin/users", {
          token: admin.token,
          body: { ...body, username: "n2", email: "n2@e.org", password: "1" },
        })
      ).status,
    ).toBe(400);
  });

  it("forces a password change by default, as Forgejo's admin API does", async () => {
    await t.call("POST", "/admin/users", {
      token: admin.token,
      body: { username: "newbie", email: "newbie@example.com", password: "password1" },
    });
    const res = await t.call("GET", "/user", { basic: ["newbie", "password1"] });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe(
      "You must change your password. Change it at: http://kiln.test/user/change_password",
    );
  });

  it("is for site admins only", async () => {
    const u = await t.user();
    const res = await t.call("GET", "/admin/users", { token: u.token });
    expect(res.status).toBe(403);
    expect(res.json.message).toBe("user should be the site admin");
    expect((await t.call("GET", "/admin/users")).status).toBe(401);
  });

  it("pages the user list with X-Total-Count and Link, clamping limit to MAX_RESPONSE_ITEMS", async () => {
    await bulkUsers(t.services, "page-user", 55);
    const one = await t.call("GET", "/admin/users?limit=1", { token: admin.token });
    expect(one.status).toBe(200);
    expect(one.json).toHaveLength(1);
    const total = Number(one.headers.get("X-Total-Count"));
    expect(total).toBeGreaterThanOrEqual(56);
    expect(one.headers.get("Link")).toBe(
      `<http://kiln.test/api/v1/admin/users?limit=1&page=2>; rel="next",<http://kiln.test/api/v1/admin/users?limit=1&page=${total}>; rel="last"`,
    );
    const many = await t.call("GET", "/admin/users?limit=500", { token: admin.token });
    expect(many.json).toHaveLength(50);
    const sorted = await t.call("GET", "/admin/users?sort=reversealphabetically&limit=3", {
      token: admin.token,
    });
    const names = sorted.json.map((u: { login: string }) => u.login);
    expect(names).toEqual([...names].sort().reverse());
  });

  it("edits a user, refusing to drop the last admin", async () => {
    const u = await t.user();
    const res = await t.call("PATCH", `/admin/users/${u.name}`, {
      token: admin.token,
      body: { full_name: "Edited", max_repo_creation: 3, visibility: "limited", admin: true },
    });
    expect(res.status).toBe(200);
    expect(res.json).toMatchObject({ full_name: "Edited", visibility: "limited", is_admin: true });
    await t.call("PATCH", `/admin/users/${u.name}`, { token: admin.token, body: { admin: false } });
    const last = await t.call("PATCH", `/admin/users/${admin.name}`, {
      token: admin.token,
      body: { admin: false },
    });
    expect(last.status).toBe(400);
    expect((await t.call("PATCH", "/admin/users/nobody-x", { token: admin.token, body: {} })).status).toBe(
      404,
    );
  });

  it("deletes users, but never the acting admin", async () => {
    const u = await t.user();
    expect((await t.call("DELETE", `/admin/users/${u.name}`, { token: admin.token })).status).toBe(204);
    expect((await t.call("GET", `/users/${u.name}`, { token: admin.token })).status).toBe(404);
    const self = await t.call("DELETE", `/admin/users/${admin.name}`, { token: admin.token });
    expect(self.status).toBe(422);
    expect(self.json.message).toBe("you cannot delete yourself");
  });

  it("applies prohibit_login, active, restricted, admin and max_repo_creation to what the user sees at once", async () => {
    const u = await t.user();
    const other = await t.user();
    await t.call("POST", "/user/repos", { token: other.token, body: { name: "open" } });
    const edit = (body: object) => t.call("PATCH", `/admin/users/${u.name}`, { token: admin.token, body });
    // Used once, so the token and the Basic password are in the credential cache.
    expect((await t.call("GET", "/user", { token: u.token })).status).toBe(200);
    expect((await t.call("GET", "/user", { basic: u.basic })).status).toBe(200);

    expect((await edit({ prohibit_login: true })).json.prohibit_login).toBe(true);
    for (const auth of [{ token: u.token }, { basic: u.basic }] as const) {
      const refused = await t.call("GET", "/user", auth);
      expect(refused.status).toBe(403);
      expect(refused.json.message).toBe(
        "This account is prohibited from signing in, please contact your site administrator.",
      );
    }
    await edit({ prohibit_login: false, active: false });
    expect((await t.call("GET", "/user", { token: u.token })).status).toBe(403);
    await edit({ active: true });
    expect((await t.call("GET", "/user", { token: u.token })).status).toBe(200);

    // A restricted user sees no public repository it has no part in.
    expect((await t.call("GET", `/repos/${other.name}/open`, { token: u.token })).status).toBe(200);
    expect((await edit({ restricted: true })).json.restricted).toBe(true);
    expect((await t.call("GET", `/repos/${other.name}/open`, { token: u.token })).status).toBe(404);
    await edit({ restricted: false });
    expect((await t.call("GET", `/repos/${other.name}/open`, { token: u.token })).status).toBe(200);

    expect((await t.call("GET", "/admin/users", { token: u.token })).status).toBe(403);
    await edit({ admin: true });
    expect((await t.call("GET", "/admin/users", { token: u.token })).status).toBe(200);
    await edit({ admin: false });
    expect((await t.call("GET", "/admin/users", { token: u.token })).status).toBe(403);

    await edit({ max_repo_creation: 1 });
    expect((await t.call("POST", "/user/repos", { token: u.token, body: { name: "first" } })).status).toBe(
      201,
    );
    const over = await t.call("POST", "/user/repos", { token: u.token, body: { name: "second" } });
    expect(over.status).toBe(403);
    // The limit binds the user, not a site admin creating for them (Forgejo's admin API).
    expect(
      (await t.call("POST", `/admin/users/${u.name}/repos`, { token: admin.token, body: { name: "second" } }))
        .status,
    ).toBe(201);
    expect((await edit({ max_repo_creation: -2 })).status).toBe(422);
  });

  it("refuses to delete an owner of repositories or the last owner of an organization unless purged", async () => {
    const u = await t.user();
    const fan = await t.user();
    await t.call("POST", "/user/repos", { token: u.token, body: { name: "kept" } });
    const owns = await t.call("DELETE", `/admin/users/${u.name}`, { token: admin.token });
    expect(owns.status).toBe(422);
    expect(owns.json.message).toBe(`user still has ownership of repositories [uid: ${u.id}, count: 1]`);
    await t.call("DELETE", `/repos/${u.name}/kept`, { token: u.token });
    const org = `solo-${u.id}`;
    await t.call("POST", "/orgs", { token: u.token, body: { username: org } });
    const last = await t.call("DELETE", `/admin/users/${u.name}`, { token: admin.token });
    expect(last.status).toBe(422);
    expect(last.json.message).toBe(`user is the last owner of organizations [uid: ${u.id}, orgs: ${org}]`);
    expect((await t.call("GET", `/users/${u.name}`, { token: admin.token })).status).toBe(200);

    // purge: repositories (rows and git directories), sole-owned organizations, stars, tokens.
    await t.call("POST", "/user/repos", { token: u.token, body: { name: "mine" } });
    await t.call("POST", `/orgs/${org}/repos`, { token: u.token, body: { name: "theirs" } });
    await t.call("POST", "/user/repos", { token: fan.token, body: { name: "liked" } });
    expect((await t.call("PUT", `/user/starred/${fan.name}/liked`, { token: u.token })).status).toBe(204);
    expect((await t.call("GET", `/repos/${fan.name}/liked`)).json.stars_count).toBe(1);
    const store = t.services.repositories.store;
    expect(await store.exists(u.name, "mine")).toBe(true);
    const purged = await t.call("DELETE", `/admin/users/${u.name}?purge=true`, { token: admin.token });
    expect(purged.status).toBe(204);
    expect((await t.call("GET", `/users/${u.name}`, { token: admin.token })).status).toBe(404);
    expect((await t.call("GET", `/orgs/${org}`, { token: admin.token })).status).toBe(404);
    expect((await t.call("GET", `/repos/${u.name}/mine`, { token: admin.token })).status).toBe(404);
    expect(await store.exists(u.name, "mine")).toBe(false);
    expect(await store.exists(org, "theirs")).toBe(false);
    expect((await t.call("GET", `/repos/${fan.name}/liked`)).json.stars_count).toBe(0);
    expect((await t.call("GET", "/user", { token: u.token })).status).toBe(401);
    expect((await t.call("DELETE", "/admin/users/nobody-at-all", { token: admin.token })).status).toBe(404);
  });

  it("renames a user with Forgejo's rules; their repositories move with them on disk", async () => {
    const u = await t.user();
    const other = await t.user();
    await t.call("POST", "/user/repos", { token: u.token, body: { name: "moving", auto_init: true } });
    const newName = `renamed-${u.id}`;
    const rename = (name: string, token = admin.token, who = u.name) =>
      t.call("POST", `/admin/users/${who}/rename`, { token, body: { new_username: name } });
    expect((await rename(newName, u.token)).status).toBe(403);
    const taken = await rename(other.name);
    expect(taken.status).toBe(422);
    expect(taken.json.message).toBe("The username is already taken.");
    expect((await rename("api")).json.message).toBe("name is reserved [name: api]");
    expect((await rename("bad name")).status).toBe(422);
    expect((await rename("x", admin.token, "nobody-to-rename")).status).toBe(404);

    expect((await rename(newName)).status).toBe(204);
    // The old name leads to the account (Forgejo's user_redirect): 307 to the new name.
    const old = await t.call("GET", `/users/${u.name}`);
    expect(old.status).toBe(307);
    expect(old.headers.get("Location")).toBe(`/api/v1/users/${newName}`);
    expect((await t.call("GET", "/user", { token: u.token })).json.login).toBe(newName);
    const repo = await t.call("GET", `/repos/${newName}/moving`, { token: u.token });
    expect(repo.json.full_name).toBe(`${newName}/moving`);
    expect((await t.call("GET", `/repos/${newName}/moving/contents/README.md`)).status).toBe(200);
    const store = t.services.repositories.store;
    expect(await store.exists(newName, "moving")).toBe(true);
    expect(await store.exists(u.name, "moving")).toBe(false);
    // Letter case only: the directories stay where they are.
    expect((await rename(newName.toUpperCase(), admin.token, newName)).status).toBe(204);
    expect((await t.call("GET", `/users/${newName}`)).json.login).toBe(newName.toUpperCase());
    expect((await t.call("GET", `/repos/${newName}/moving/contents/README.md`)).status).toBe(200);
    const org = `org-${u.id}`;
    await t.call("POST", "/orgs", { token: other.token, body: { username: org } });
    expect((await rename("org-new", admin.token, org)).json.message).toBe(
      `${org} is an organization not a user`,
    );
  });
});
