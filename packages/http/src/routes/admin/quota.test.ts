// Forgejo's tests/integration/api_quota_management_test.go (reference/forgejo/quota-test-cases.md §1),
// case by case, through the HTTP API.
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("quota administration over HTTP on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  const as = (method: string, path: string, body?: unknown) =>
    t.call(method, path, { token: admin.token, ...(body !== undefined ? { body } : {}) });

  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
  });
  afterAll(() => t?.close());
  // Each Forgejo test deletes what it created; so does each of these.
  afterEach(async () => {
    for (const g of (await as("GET", "/admin/quota/groups")).json)
      expect((await as("DELETE", `/admin/quota/groups/${g.name}`)).status).toBe(204);
    for (const r of (await as("GET", "/admin/quota/rules")).json)
      expect((await as("DELETE", `/admin/quota/rules/${r.name}`)).status).toBe(204);
  });

  const createRule = async (rule: object) =>
    expect((await as("POST", "/admin/quota/rules", rule)).status).toBe(201);
  const createGroup = async (name: string) =>
    expect((await as("POST", "/admin/quota/groups", { name })).status).toBe(201);
  const ruleDenyAll = { name: "deny-all", limit: 0, subjects: ["size:all"] };

  describe("TestAPIQuotaCreateGroupWithRules", () => {
    it("attaches existing rules as they are and creates missing ones (limit 0 by default)", async () => {
      await createRule({ name: "unlimited", limit: -1, subjects: ["size:all"] });
      await createRule({ name: "deny-git-lfs", limit: 0, subjects: ["size:git:lfs"] });
      const res = await as("POST", "/admin/quota/groups", {
        name: "group-with-rules",
        rules: [
          { name: "unlimited" },
          { name: "deny-git-lfs", limit: -1 },
          { name: "new-rule", subjects: ["size:assets:all"] },
        ],
      });
      expect(res.status).toBe(201);
      expect(res.json.name).toBe("group-with-rules");
      expect(res.json.rules).toHaveLength(3);
      expect((await as("GET", "/admin/quota/rules/unlimited")).json).toEqual({
        name: "unlimited",
        limit: -1,
        subjects: ["size:all"],
      });
      expect((await as("GET", "/admin/quota/rules/deny-git-lfs")).json).toEqual({
        name: "deny-git-lfs",
        limit: 0,
        subjects: ["size:git:lfs"],
      });
      expect((await as("GET", "/admin/quota/rules/new-rule")).json).toEqual({
        name: "new-rule",
        limit: 0,
        subjects: ["size:assets:all"],
      });
      expect((await as("DELETE", "/admin/quota/groups/group-with-rules")).status).toBe(204);
      expect((await as("GET", "/admin/quota/rules/unlimited")).status).toBe(200); // rules survive
      expect((await as("DELETE", "/admin/quota/rules/new-rule")).status).toBe(204);
    });

    it("refuses a new rule with an unknown subject, creating nothing (one transaction)", async () => {
      const res = await as("POST", "/admin/quota/groups", {
        name: "group-with-invalid-rule-spec",
        rules: [
          { name: "ok-rule", limit: 5 },
          { name: "rule-with-wrong-spec", subjects: ["valid:false"] },
        ],
      });
      expect(res.status).toBe(422);
      expect(res.json.message).toBe("unrecognized quota limit subject: [subject: valid:false]");
      expect((await as("GET", "/admin/quota/groups/group-with-invalid-rule-spec")).status).toBe(404);
      expect((await as("GET", "/admin/quota/rules/ok-rule")).status).toBe(404);
    });
  });

  describe("TestAPIQuotaEmptyState", () => {
    it("shows zero usage and no groups to the admin and the user; the used-item lists are empty", async () => {
      const user = await t.user({ name: "quota-empty-user" });
      const zero = {
        size: {
          repos: { public: 0, private: 0 },
          git: { LFS: 0 },
          assets: { attachments: { issues: 0, releases: 0 }, artifacts: 0, packages: { all: 0 } },
        },
      };
      const adminView = await as("GET", "/admin/users/quota-empty-user/quota");
      expect(adminView.status).toBe(200);
      expect(adminView.json).toEqual({ used: zero, groups: [] });
      const own = await t.call("GET", "/user/quota", { token: user.token });
      expect(own.status).toBe(200);
      expect(own.json).toEqual({ used: zero, groups: [] });
      for (const list of ["artifacts", "attachments", "packages"]) {
        const res = await t.call("GET", `/user/quota/${list}`, { token: user.token });
        expect(res.status).toBe(200);
        expect(res.json).toEqual([]);
        expect(res.headers.get("X-Total-Count")).toBe("0");
      }
    });
  });

  describe("TestAPIQuotaAdminRoutesRules", () => {
    it("adminCreateQuotaRule: 201 with the rule; persisted", async () => {
      const res = await as("POST", "/admin/quota/rules", ruleDenyAll);
      expect(res.status).toBe(201);
      expect(res.json).toEqual(ruleDenyAll);
      expect((await as("GET", "/admin/quota/rules/deny-all")).json.limit).toBe(0);
    });

    it("adminCreateQuotaRule: missing options, missing limit, invalid subjects, existing rule", async () => {
      const missing = await t.call("POST", "/admin/quota/rules", { token: admin.token, rawBody: "null" });
      expect(missing.status).toBe(422);
      expect(missing.json.message).toBe("[Name]: Required");
      const noLimit = await as("POST", "/admin/quota/rules", { name: "no-limit" });
      expect(noLimit.status).toBe(422);
      expect(noLimit.json.message).toBe("[Limit]: Required");
      const invalid = await as("POST", "/admin/quota/rules", {
        name: "invalid-subjects",
        limit: 0,
        subjects: ["valid:false"],
      });
      expect(invalid.status).toBe(422);
      expect(invalid.json.message).toBe("unrecognized quota limit subject: [subject: valid:false]");
      await createRule({ name: "double-rule", limit: 0 });
      const again = await as("POST", "/admin/quota/rules", { name: "double-rule", limit: 0 });
      expect(again.status).toBe(409);
      expect(again.json.message).toBe("rule already exists: [name: double-rule]");
      expect((await as("GET", "/admin/quota/rules/double-rule")).json).toEqual({
        name: "double-rule",
        limit: 0,
      });
    });

    it("adminDeleteQuotaRule: 204 and gone; 404 for a rule that does not exist", async () => {
      await createRule(ruleDenyAll);
      expect((await as("DELETE", "/admin/quota/rules/deny-all")).status).toBe(204);
      expect((await as("GET", "/admin/quota/rules/deny-all")).status).toBe(404);
      const missing = await as("DELETE", "/admin/quota/rules/does-not-exist");
      expect(missing.status).toBe(404);
      expect(missing.json).toMatchObject({ message: "The target couldn't be found.", errors: [] });
    });

    it("adminEditQuotaRule: changes what is given; null changes nothing; 404; 422", async () => {
      await createRule(ruleDenyAll);
      const edited = await as("PATCH", "/admin/quota/rules/deny-all", { limit: 1024 });
      expect(edited.status).toBe(200);
      expect(edited.json).toEqual({ name: "deny-all", limit: 1024, subjects: ["size:all"] });
      expect((await as("GET", "/admin/quota/rules/deny-all")).json.limit).toBe(1024);
      const none = await t.call("PATCH", "/admin/quota/rules/deny-all", {
        token: admin.token,
        rawBody: "null",
      });
      expect(none.status).toBe(200);
      expect(none.json).toEqual({ name: "deny-all", limit: 1024, subjects: ["size:all"] });
      expect((await as("PATCH", "/admin/quota/rules/does-not-exist", { limit: 1024 })).status).toBe(404);
      const invalid = await as("PATCH", "/admin/quota/rules/deny-all", { subjects: ["valid:false"] });
      expect(invalid.status).toBe(422);
      const spelled = await as("PATCH", "/admin/quota/rules/deny-all", {
        subjects: ["sizelfs", "size:git:all"],
      });
      expect(spelled.json.subjects).toEqual(["sizelfs", "size:git:all"]);
    });

    it("adminListQuotaRules: every rule with its name", async () => {
      await createRule(ruleDenyAll);
      const res = await as("GET", "/admin/quota/rules");
      expect(res.status).toBe(200);
      expect(res.json).toHaveLength(1);
      expect(res.json[0]).toMatchObject({ name: "deny-all", limit: 0 });
    });
  });

  describe("TestAPIQuotaAdminRoutesGroups", () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await t.user({ name: "quota-test-user" });
    });

    it("adminCreateQuotaGroup: 201 with no rules; missing options 422; duplicate 409", async () => {
      const res = await as("POST", "/admin/quota/groups", { name: "default" });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ name: "default", rules: [] });
      const missing = await t.call("POST", "/admin/quota/groups", { token: admin.token, rawBody: "null" });
      expect(missing.status).toBe(422);
      expect(missing.json.message).toBe("[Name]: Required");
      await createGroup("duplicate");
      const dup = await as("POST", "/admin/quota/groups", { name: "duplicate" });
      expect(dup.status).toBe(409);
      expect(dup.json.message).toBe("group already exists: [name: duplicate]");
    });

    it("adminDeleteQuotaGroup: 204 and gone; 404 for a group that does not exist", async () => {
      await createGroup("default");
      expect((await as("DELETE", "/admin/quota/groups/default")).status).toBe(204);
      expect((await as("GET", "/admin/quota/groups/default")).status).toBe(404);
      expect((await as("DELETE", "/admin/quota/groups/does-not-exist")).status).toBe(404);
    });

    it("adminAddRuleToQuotaGroup: 204 then the group holds exactly the rule; 404s; 409 when already there", async () => {
      await createGroup("default");
      await createRule(ruleDenyAll);
      expect((await as("PUT", "/admin/quota/groups/default/rules/deny-all")).status).toBe(204);
      expect((await as("GET", "/admin/quota/groups/default")).json).toEqual({
        name: "default",
        rules: [ruleDenyAll],
      });
      expect((await as("PUT", "/admin/quota/groups/does-not-exist/rules/deny-all")).status).toBe(404);
      expect((await as("PUT", "/admin/quota/groups/default/rules/does-not-exist")).status).toBe(404);
      const again = await as("PUT", "/admin/quota/groups/default/rules/deny-all");
      expect(again.status).toBe(409);
      expect(again.json.message).toBe("rule already in group: [group: default, rule: deny-all]");
    });

    it("adminRemoveRuleFromQuotaGroup: 204 and the group stays, empty; 404 for unknown names or a rule not in it", async () => {
      await createGroup("default");
      await createRule(ruleDenyAll);
      expect((await as("PUT", "/admin/quota/groups/default/rules/deny-all")).status).toBe(204);
      expect((await as("DELETE", "/admin/quota/groups/default/rules/deny-all")).status).toBe(204);
      expect((await as("GET", "/admin/quota/groups/default")).json).toEqual({ name: "default", rules: [] });
      expect((await as("DELETE", "/admin/quota/groups/does-not-exist/rules/deny-all")).status).toBe(404);
      expect((await as("DELETE", "/admin/quota/groups/default/rules/does-not-exist")).status).toBe(404);
      await createRule({ name: "rule-not-in-group", limit: 0 });
      expect((await as("DELETE", "/admin/quota/groups/default/rules/rule-not-in-group")).status).toBe(404);
    });

    it("adminGetQuotaGroup and adminListQuotaGroups show names and rules; 404 for an unknown group", async () => {
      await createGroup("default");
      await createRule(ruleDenyAll);
      expect((await as("PUT", "/admin/quota/groups/default/rules/deny-all")).status).toBe(204);
      const one = await as("GET", "/admin/quota/groups/default");
      expect(one.status).toBe(200);
      expect(one.json.name).toBe("default");
      expect(one.json.rules).toHaveLength(1);
      expect(one.json.rules[0].name).toBe("deny-all");
      expect((await as("GET", "/admin/quota/groups/does-not-exist")).status).toBe(404);
      const all = await as("GET", "/admin/quota/groups");
      expect(all.status).toBe(200);
      expect(all.json).toHaveLength(1);
      expect(all.json[0].name).toBe("default");
      expect(all.json[0].rules).toHaveLength(1);
      expect(all.json[0].rules[0].name).toBe("deny-all");
    });

    it("adminAddUserToQuotaGroup: 204 and the user is in it; 404s; 409 when already added", async () => {
      await createGroup("default");
      expect((await as("PUT", `/admin/quota/groups/default/users/${user.name}`)).status).toBe(204);
      const info = await as("GET", `/admin/users/${user.name}/quota`);
      expect(info.json.groups.map((g: { name: string }) => g.name)).toEqual(["default"]);
      expect((await as("PUT", `/admin/quota/groups/does-not-exist/users/${user.name}`)).status).toBe(404);
      const noUser = await as("PUT", "/admin/quota/groups/default/users/this-user-does-not-exist");
      expect(noUser.status).toBe(404);
      expect(noUser.json.message).toBe("user does not exist [name: this-user-does-not-exist]");
      const again = await as("PUT", `/admin/quota/groups/default/users/${user.name}`);
      expect(again.status).toBe(409);
      expect(again.json.message).toBe(`user already in group: [group: default, userID: ${user.id}]`);
    });

    it("adminRemoveUserFromQuotaGroup: 204 and the user has no group; 404s, also for a user not in it", async () => {
      await createGroup("default");
      expect((await as("PUT", `/admin/quota/groups/default/users/${user.name}`)).status).toBe(204);
      expect((await as("DELETE", `/admin/quota/groups/default/users/${user.name}`)).status).toBe(204);
      expect((await as("GET", `/admin/users/${user.name}/quota`)).json.groups).toEqual([]);
      expect((await as("DELETE", `/admin/quota/groups/does-not-exist/users/${user.name}`)).status).toBe(404);
      expect((await as("DELETE", "/admin/quota/groups/default/users/does-not-exist")).status).toBe(404);
      expect((await as("DELETE", `/admin/quota/groups/default/users/${admin.name}`)).status).toBe(404);
    });

    it("adminListUsersInQuotaGroup: the users in it; 404 for an unknown group", async () => {
      await createGroup("default");
      expect((await as("PUT", `/admin/quota/groups/default/users/${user.name}`)).status).toBe(204);
      const res = await as("GET", "/admin/quota/groups/default/users");
      expect(res.status).toBe(200);
      expect(res.json).toHaveLength(1);
      expect(res.json[0].login).toBe("quota-test-user");
      expect((await as("GET", "/admin/quota/groups/does-not-exist/users")).status).toBe(404);
    });

    it("adminSetUserQuotaGroups: replaces the set; 404 for an unknown user; 422 naming an unknown group", async () => {
      for (const g of ["default", "test-1", "test-2"]) await createGroup(g);
      const set = await as("POST", `/admin/users/${user.name}/quota/groups`, {
        groups: ["default", "test-1", "test-2"],
      });
      expect(set.status).toBe(204);
      expect((await as("GET", `/admin/users/${user.name}/quota`)).json.groups).toHaveLength(3);
      expect(
        (await as("POST", "/admin/users/does-not-exist/quota/groups", { groups: ["default"] })).status,
      ).toBe(404);
      const bad = await as("POST", `/admin/users/${user.name}/quota/groups`, {
        groups: ["default", "test-1", "test-2", "this-group-does-not-exist"],
      });
      expect(bad.status).toBe(422);
      expect(bad.json.message).toBe("group not found: [group: this-group-does-not-exist]");
      expect((await as("GET", `/admin/users/${user.name}/quota`)).json.groups).toHaveLength(3);
      expect(
        (await as("POST", `/admin/users/${user.name}/quota/groups`, { groups: ["test-2"] })).status,
      ).toBe(204);
      const after = await as("GET", `/admin/users/${user.name}/quota`);
      expect(after.json.groups.map((g: { name: string }) => g.name)).toEqual(["test-2"]);
    });
  });

  describe("access", () => {
    it("answers 403 to a user who is not a site admin, and to an admin token without the admin scope", async () => {
      const user = await t.user();
      const res = await t.call("GET", "/admin/quota/rules", { token: user.token });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe("user should be the site admin");
      const { secret } = await t.services.tokens.create(
        await t.services.users.getByName(admin.name),
        "no-admin-scope",
        ["read:user"],
      );
      const scoped = await t.call("GET", "/admin/quota/groups", { token: secret });
      expect(scoped.status).toBe(403);
      expect(scoped.json.message).toContain("read:admin");
      expect((await t.call("GET", "/admin/quota/rules")).status).toBe(401);
    });
  });
});

describe("TestAPIQuotaDisabled", () => {
  it("answers 404 on every quota route when [quota] ENABLED is false", async () => {
    const t = await openTestApp("pglite", { quota: { enabled: false } });
    try {
      const admin = await t.user({ admin: true });
      for (const path of [
        "/user/quota",
        "/user/quota/check?subject=size:all",
        "/user/quota/attachments",
        "/admin/quota/rules",
        "/admin/quota/groups",
        `/admin/users/${admin.name}/quota`,
      ]) {
        expect((await t.call("GET", path, { token: admin.token })).status, path).toBe(404);
      }
      expect(
        (await t.call("POST", "/admin/quota/rules", { token: admin.token, body: { name: "x", limit: 0 } }))
          .status,
      ).toBe(404);
      expect((await t.call("GET", "/user", { token: admin.token })).status).toBe(200);
    } finally {
      await t.close();
    }
  });
});
