// Forgejo's tests/integration/api_quota_management_test.go (reference/forgejo/quota-test-cases.md §1),
// case by case, through the HTTP API: usage, access and the disabled quota.
import { DIALECTS } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { quotaAdminContext } from "../../../test/quota-support.js";
import { openTestApp } from "../../../test/support.js";

describe.each(DIALECTS)("quota administration over HTTP on %s", (dialect) => {
  const q = quotaAdminContext(dialect);
  const { as } = q;

  describe("TestAPIQuotaEmptyState", () => {
    it("shows zero usage and no groups to the admin and the user; the used-item lists are empty", async () => {
      const user = await q.t.user({ name: "quota-empty-user" });
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
      const own = await q.t.call("GET", "/user/quota", { token: user.token });
      expect(own.status).toBe(200);
      expect(own.json).toEqual({ used: zero, groups: [] });
      for (const list of ["artifacts", "attachments", "packages"]) {
        const res = await q.t.call("GET", `/user/quota/${list}`, { token: user.token });
        expect(res.status).toBe(200);
        expect(res.json).toEqual([]);
        expect(res.headers.get("X-Total-Count")).toBe("0");
      }
    });
  });

  describe("access", () => {
    it("answers 403 to a user who is not a site admin, and to an admin token without the admin scope", async () => {
      const user = await q.t.user();
      const res = await q.t.call("GET", "/admin/quota/rules", { token: user.token });
      expect(res.status).toBe(403);
      expect(res.json.message).toBe("user should be the site admin");
      const { secret } = await q.t.services.tokens.create(
        await q.t.services.users.getByName(q.admin.name),
        "no-admin-scope",
        ["read:user"],
      );
      const scoped = await q.t.call("GET", "/admin/quota/groups", { token: secret });
      expect(scoped.status).toBe(403);
      expect(scoped.json.message).toContain("read:admin");
      expect((await q.t.call("GET", "/admin/quota/rules")).status).toBe(401);
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
