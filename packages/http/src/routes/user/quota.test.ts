// Forgejo's TestAPIQuotaUserRoutes, and the parts of TestAPIQuotaUserBasics and
// TestAPIQuotaOrgQuotaQuery that need no enforcement (reference/forgejo/quota-test-cases.md §1, §2),
// plus the user routes' access rules, through the HTTP API.
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addRepository } from "../../../test/quota-support.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("the user's quota over HTTP on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  const asAdmin = (method: string, path: string, body?: unknown) =>
    t.call(method, path, { token: admin.token, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
  });
  afterAll(() => t?.close());

  it("TestAPIQuotaUserRoutes: two groups of one rule each, shown without names", async () => {
    const user = await t.user({ name: "quota-test-user-routes" });
    for (const rule of [
      { name: "user-routes-deny-all", limit: 0, subjects: ["size:all"] },
      {
        name: "user-routes-1kb",
        limit: 1024,
        subjects: ["size:assets:attachments:releases", "size:assets:packages:all", "size:git:lfs"],
      },
    ])
      expect((await asAdmin("POST", "/admin/quota/rules", rule)).status).toBe(201);
    for (const [group, rule] of [
      ["user-routes-deny", "user-routes-deny-all"],
      ["user-routes-1kb", "user-routes-1kb"],
    ]) {
      expect((await asAdmin("POST", "/admin/quota/groups", { name: group })).status).toBe(201);
      expect((await asAdmin("PUT", `/admin/quota/groups/${group}/rules/${rule}`)).status).toBe(204);
      expect((await asAdmin("PUT", `/admin/quota/groups/${group}/users/${user.name}`)).status).toBe(204);
    }
    const res = await t.call("GET", "/user/quota", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.json.groups).toHaveLength(2);
    for (const g of res.json.groups) {
      expect(g).not.toHaveProperty("name");
      expect(g.rules).toHaveLength(1);
      expect(g.rules[0]).not.toHaveProperty("name");
    }
    expect(res.json.groups).toContainEqual({
      rules: [
        {
          limit: 1024,
          subjects: ["size:assets:attachments:releases", "size:assets:packages:all", "size:git:lfs"],
        },
      ],
    });
  });

  describe("TestAPIQuotaUserBasics (SetupWithMultipleQuotaRules, v13+)", () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await t.user();
      // prepareQuotaEnv: one public repository with content, owned by the user.
      await addRepository(t, user, { gitSize: 40_960 });
      expect((await asAdmin("POST", "/admin/quota/groups", { name: "basics" })).status).toBe(201);
      for (const rule of [
        { name: "repo-size", limit: 15_728_640, subjects: ["size:repos:all"] },
        { name: "asset-size", limit: 15_728_640, subjects: ["size:assets:all"] },
      ]) {
        expect((await asAdmin("POST", "/admin/quota/rules", rule)).status).toBe(201);
        expect((await asAdmin("PUT", `/admin/quota/groups/basics/rules/${rule.name}`)).status).toBe(204);
      }
      expect((await asAdmin("PUT", `/admin/quota/groups/basics/users/${user.name}`)).status).toBe(204);
    });

    it("shows the user's usage without names, and the admin the same with names", async () => {
      const own = await t.call("GET", "/user/quota", { token: user.token });
      expect(own.status).toBe(200);
      expect(own.json.used.size.repos.public).toBeGreaterThan(0);
      expect(own.json.groups[0].name).toBeUndefined();
      expect(own.json.groups[0].rules[0].name).toBeUndefined();
      const view = await asAdmin("GET", `/admin/users/${user.name}/quota`);
      expect(view.status).toBe(200);
      expect(view.json.used).toEqual(own.json.used);
      expect(view.json.groups[0].name).toBe("basics");
      expect(view.json.groups[0].rules[0].name).toBe("repo-size");
    });

    it("checks size:repos:all: true within the limit, false once repo-size is 0", async () => {
      const check = () => t.call("GET", "/user/quota/check?subject=size:repos:all", { token: user.token });
      const pass = await check();
      expect(pass.status).toBe(200);
      expect(pass.text).toBe("true");
      expect((await asAdmin("PATCH", "/admin/quota/rules/repo-size", { limit: 0 })).status).toBe(200);
      const fail = await check();
      expect(fail.status).toBe(200);
      expect(fail.text).toBe("false");
      expect((await asAdmin("PATCH", "/admin/quota/rules/repo-size", { limit: 15_728_640 })).status).toBe(
        200,
      );
      expect((await check()).json).toBe(true);
    });
  });

  it("TestAPIQuotaOrgQuotaQuery: usage is per owner (the user's repository does not count for their organization)", async () => {
    const user = await t.user();
    await addRepository(t, user, { gitSize: 2048 });
    expect(
      (await t.call("POST", "/orgs", { token: user.token, body: { username: `${user.name}-org` } })).status,
    ).toBe(201);
    const mine = await t.call("GET", "/user/quota", { token: user.token });
    const org = await t.call("GET", `/orgs/${user.name}-org/quota`, { token: user.token });
    expect(mine.status).toBe(200);
    expect(org.status).toBe(200);
    expect(mine.json.used.size.repos.public).toBeGreaterThan(0);
    expect(org.json.used.size.repos.public).toBe(0);
  });

  it("reports every counter in Forgejo's nesting, private and LFS apart from public", async () => {
    const user = await t.user();
    await addRepository(t, user, { gitSize: 100, lfsSize: 7 });
    await addRepository(t, user, { gitSize: 30, lfsSize: 5, isPrivate: true });
    const res = await t.call("GET", "/user/quota", { token: user.token });
    expect(res.json).toEqual({
      used: {
        size: {
          repos: { public: 100, private: 30 },
          git: { LFS: 12 },
          assets: { attachments: { issues: 0, releases: 0 }, artifacts: 0, packages: { all: 0 } },
        },
      },
      groups: [],
    });
  });

  it("answers 422 with Forgejo's message for a missing or unknown subject; accepts every spelling and alias", async () => {
    const user = await t.user();
    const missing = await t.call("GET", "/user/quota/check", { token: user.token });
    expect(missing.status).toBe(422);
    expect(missing.json.message).toBe("unrecognized quota limit subject: [subject: ]");
    const unknown = await t.call("GET", "/user/quota/check?subject=size:git", { token: user.token });
    expect(unknown.status).toBe(422);
    expect(unknown.json.message).toBe("unrecognized quota limit subject: [subject: size:git]");
    for (const s of [
      "size:all",
      "sizeall",
      "size:git:all",
      "sizelfs",
      "size:git:lfs",
      "size:wiki",
      "size:assets:wiki",
      "none",
      "size:assets:artifacts",
    ]) {
      const res = await t.call("GET", `/user/quota/check?subject=${encodeURIComponent(s)}`, {
        token: user.token,
      });
      expect(res.status, s).toBe(200);
      expect(res.json, s).toBe(true);
    }
  });

  it("needs read:user: 403 for a token without it, 401 without credentials", async () => {
    const user = await t.user();
    const account = await t.services.users.getByName(user.name);
    const repoOnly = (await t.services.tokens.create(account, "repo-only", ["read:repository"])).secret;
    const readUser = (await t.services.tokens.create(account, "read-user", ["read:user"])).secret;
    for (const path of ["/user/quota", "/user/quota/check?subject=size:all", "/user/quota/packages"]) {
      const denied = await t.call("GET", path, { token: repoOnly });
      expect(denied.status, path).toBe(403);
      expect(denied.json.message).toBe("token does not have at least one of required scope(s): [read:user]");
      expect((await t.call("GET", path, { token: readUser })).status, path).toBe(200);
      expect((await t.call("GET", path)).status, path).toBe(401);
    }
    expect((await t.call("GET", "/user/quota", { basic: user.basic })).status).toBe(200);
  });

  it("pages the used-item lists with X-Total-Count, whatever page and limit are asked for", async () => {
    const user = await t.user();
    for (const list of ["attachments", "packages", "artifacts"]) {
      const res = await t.call("GET", `/user/quota/${list}?page=2&limit=5`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.json).toEqual([]);
      expect(res.headers.get("X-Total-Count")).toBe("0");
    }
  });
  it("shows what a feature's lister reports, converted to Forgejo's shapes with absolute URLs", async () => {
    const user = await t.user();
    const attachments = Array.from({ length: 7 }, (_, i) => ({
      name: `file-${i}.png`,
      size: 7000 - i * 1000,
      apiPath: `/repos/${user.name}/r/releases/3/assets/${i + 1}`,
      containedIn: {
        apiPath: `/repos/${user.name}/r/releases/3`,
        htmlPath: `${user.name}/r/releases/tag/v1`,
      },
    }));
    t.services.quota.registerUsedItems("attachments", async (ownerId, page) =>
      ownerId === user.id
        ? {
            items: attachments.slice((page.page - 1) * page.limit, page.page * page.limit),
            total: attachments.length,
          }
        : { items: [], total: 0 },
    );
    const res = await t.call("GET", "/user/quota/attachments?page=2&limit=3", { token: user.token });
    expect(res.status).toBe(200);
    expect(res.headers.get("X-Total-Count")).toBe("7");
    expect(res.headers.get("Link")).toContain('page=3>; rel="next"');
    expect(res.json.map((a: { size: number }) => a.size)).toEqual([4000, 3000, 2000]);
    expect(res.json[0]).toEqual({
      name: "file-3.png",
      size: 4000,
      api_url: `http://kiln.test/api/v1/repos/${user.name}/r/releases/3/assets/4`,
      contained_in: {
        api_url: `http://kiln.test/api/v1/repos/${user.name}/r/releases/3`,
        html_url: `http://kiln.test/${user.name}/r/releases/tag/v1`,
      },
    });
  });
});
