// Forgejo's tests/integration/api_quota_management_test.go (reference/forgejo/quota-test-cases.md §1),
// case by case, through the HTTP API: quota rules.
import { DIALECTS } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { quotaAdminContext, ruleDenyAll } from "../../../test/quota-support.js";

describe.each(DIALECTS)("quota rule administration over HTTP on %s", (dialect) => {
  const q = quotaAdminContext(dialect);
  const { as, createRule } = q;

  describe("TestAPIQuotaAdminRoutesRules", () => {
    it("adminCreateQuotaRule: 201 with the rule; persisted", async () => {
      const res = await as("POST", "/admin/quota/rules", ruleDenyAll);
      expect(res.status).toBe(201);
      expect(res.json).toEqual(ruleDenyAll);
      expect((await as("GET", "/admin/quota/rules/deny-all")).json.limit).toBe(0);
    });

    it("adminCreateQuotaRule: missing options, missing limit, invalid subjects, existing rule", async () => {
      const missing = await q.t.call("POST", "/admin/quota/rules", { token: q.admin.token, rawBody: "null" });
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
      const none = await q.t.call("PATCH", "/admin/quota/rules/deny-all", {
        token: q.admin.token,
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
});
