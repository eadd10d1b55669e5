// Forgejo's tests/integration/api_quota_management_test.go (reference/forgejo/quota-test-cases.md §1),
// case by case, through the HTTP API: quota groups.
import { DIALECTS } from "@kiln/storage/testing";
import { beforeAll, describe, expect, it } from "vitest";
import { quotaAdminContext, ruleDenyAll } from "../../../test/quota-support.js";
import type { TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("quota group administration over HTTP on %s", (dialect) => {
  const q = quotaAdminContext(dialect);
  const { as, createRule, createGroup } = q;

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

  describe("TestAPIQuotaAdminRoutesGroups", () => {
    let user: TestUser;
    beforeAll(async () => {
      user = await q.t.user({ name: "quota-test-user" });
    });

    it("adminCreateQuotaGroup: 201 with no rules; missing options 422; duplicate 409", async () => {
      const res = await as("POST", "/admin/quota/groups", { name: "default" });
      expect(res.status).toBe(201);
      expect(res.json).toEqual({ name: "default", rules: [] });
      const missing = await q.t.call("POST", "/admin/quota/groups", {
        token: q.admin.token,
        rawBody: "null",
      });
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
      expect((await as("DELETE", `/admin/quota/groups/default/users/${q.admin.name}`)).status).toBe(404);
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
});
