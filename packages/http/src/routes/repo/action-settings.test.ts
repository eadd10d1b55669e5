import { DIALECTS, uniqueName } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const VALUE = "s3cr3t-value-that-must-never-show";

describe.each(DIALECTS)("Actions secrets and variables over the API on %s", (dialect) => {
  let t: TestApp;
  let alice: TestUser;
  let admin: TestUser;
  let reader: TestUser;
  let outsider: TestUser;
  let alicePublicOnly: string;
  let priv: string;
  let pub: string;
  let org: string;

  const tokenFor = async (user: TestUser, scopes: string[]) =>
    (await t.services.tokens.create(await t.services.users.getByName(user.name), uniqueName("tok"), scopes))
      .secret;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    alice = await t.user();
    admin = await t.user({ admin: true });
    reader = await t.user();
    outsider = await t.user();
    alicePublicOnly = await tokenFor(alice, ["public-only", "all"]);
    const mk = async (isPrivate: boolean) => {
      const res = await t.call("POST", "/user/repos", {
        token: alice.token,
        body: { name: uniqueName("repo"), private: isPrivate },
      });
      expect(res.status).toBe(201);
      return res.json.full_name as string;
    };
    priv = await mk(true);
    pub = await mk(false);
    for (const repo of [priv, pub]) {
      const res = await t.call("PUT", `/repos/${repo}/collaborators/${reader.name}`, {
        token: alice.token,
        body: { permission: "read" },
      });
      expect(res.status).toBe(204);
    }
    org = uniqueName("org");
    expect((await t.call("POST", "/orgs", { token: alice.token, body: { username: org } })).status).toBe(201);
  });
  afterAll(async () => t?.close());

  const scopes = () => [
    { label: "repository", base: `/repos/${priv}/actions` },
    { label: "organization", base: `/orgs/${org}/actions` },
    { label: "user", base: "/user/actions" },
  ];

  it("creates (201), updates (204), lists and deletes secrets, never showing a value", async () => {
    for (const { base, label } of scopes()) {
      const put = await t.call("PUT", `${base}/secrets/deploy_key`, {
        token: alice.token,
        body: { data: VALUE },
      });
      expect(put.status, label).toBe(201);
      expect(put.text).toBe("");
      const again = await t.call("PUT", `${base}/secrets/DEPLOY_KEY`, {
        token: alice.token,
        body: { data: "v2" },
      });
      expect(again.status, label).toBe(204);
      if (label !== "user") {
        const list = await t.call("GET", `${base}/secrets`, { token: alice.token });
        expect(list.status).toBe(200);
        expect(list.json).toEqual([{ name: "DEPLOY_KEY", created_at: expect.any(String) }]);
        expect(list.headers.get("X-Total-Count")).toBe("1");
        expect(list.text).not.toContain(VALUE);
        expect(list.text).not.toContain("v2");
      }
      expect((await t.call("DELETE", `${base}/secrets/deploy_key`, { token: alice.token })).status).toBe(204);
      expect((await t.call("DELETE", `${base}/secrets/deploy_key`, { token: alice.token })).status).toBe(404);
    }
  });

  it("stores secret values sealed, not as written", async () => {
    await t.call("PUT", `/repos/${priv}/actions/secrets/SEALED`, {
      token: alice.token,
      body: { data: VALUE },
    });
    const rows = await t.services.ctx.db.selectFrom("actionSecret").select("data").execute();
    expect(rows.length).toBeGreaterThan(0);
    for (const row of rows) expect(row.data).not.toContain(VALUE);
  });

  it("refuses bad names with 400 and empty or oversized values with 422, as Forgejo", async () => {
    for (const { base } of scopes()) {
      for (const bad of ["1ABC", "GITHUB_TOKEN", "gitea_x", "FORGEJO_X", "has-dash", "A".repeat(256)]) {
        const res = await t.call("PUT", `${base}/secrets/${bad}`, {
          token: alice.token,
          body: { data: "x" },
        });
        expect(res.status, bad).toBe(400);
        expect(res.json.message).toBe("invalid secret name");
      }
      expect((await t.call("DELETE", `${base}/secrets/bad-name`, { token: alice.token })).status).toBe(400);
      expect(
        (await t.call("PUT", `${base}/secrets/OK`, { token: alice.token, body: { data: "" } })).status,
      ).toBe(422);
      const huge = await t.call("PUT", `${base}/secrets/OK`, {
        token: alice.token,
        body: { data: "x".repeat(70_000) },
      });
      expect(huge.status).toBe(422);
      const ci = await t.call("POST", `${base}/variables/CI_THING`, {
        token: alice.token,
        body: { value: "x" },
      });
      expect(ci.status).toBe(400);
    }
  });

  it("creates, reads, renames, lists and deletes variables", async () => {
    for (const { base, label } of scopes()) {
      const created = await t.call("POST", `${base}/variables/my_var`, {
        token: alice.token,
        body: { value: "a\r\nb" },
      });
      expect(created.status, label).toBe(204);
      const dup = await t.call("POST", `${base}/variables/MY_VAR`, {
        token: alice.token,
        body: { value: "x" },
      });
      expect(dup.status).toBe(409);
      const got = await t.call("GET", `${base}/variables/my_var`, { token: alice.token });
      expect(got.status).toBe(200);
      expect(got.json).toMatchObject({ name: "MY_VAR", data: "a\nb" });
      const renamed = await t.call("PUT", `${base}/variables/MY_VAR`, {
        token: alice.token,
        body: { name: "other_var", value: "c" },
      });
      expect(renamed.status).toBe(204);
      expect((await t.call("GET", `${base}/variables/MY_VAR`, { token: alice.token })).status).toBe(404);
      const list = await t.call("GET", `${base}/variables`, { token: alice.token });
      expect(list.json).toEqual([expect.objectContaining({ name: "OTHER_VAR", data: "c" })]);
      expect(
        (await t.call("PUT", `${base}/variables/NOPE`, { token: alice.token, body: { value: "x" } })).status,
      ).toBe(404);
      expect((await t.call("DELETE", `${base}/variables/other_var`, { token: alice.token })).status).toBe(
        204,
      );
      expect((await t.call("DELETE", `${base}/variables/other_var`, { token: alice.token })).status).toBe(
        404,
      );
    }
  });

  it("lets no outsider, read collaborator or public-only token list or set them", async () => {
    await t.call("PUT", `/repos/${pub}/actions/secrets/PUB_SECRET`, {
      token: alice.token,
      body: { data: VALUE },
    });
    await t.call("PUT", `/orgs/${org}/actions/secrets/ORG_SECRET`, {
      token: alice.token,
      body: { data: VALUE },
    });
    const cases: [string, string, number[]][] = [
      [outsider.token, `/repos/${priv}/actions/secrets`, [404]],
      [outsider.token, `/repos/${pub}/actions/secrets`, [403]],
      [reader.token, `/repos/${priv}/actions/secrets`, [403]],
      [reader.token, `/repos/${pub}/actions/variables`, [403]],
      [outsider.token, `/orgs/${org}/actions/secrets`, [403]],
      [alicePublicOnly, `/repos/${priv}/actions/secrets`, [404]],
      [alicePublicOnly, `/repos/${pub}/actions/secrets`, [403]],
      [alicePublicOnly, `/orgs/${org}/actions/variables`, [403]],
      [alicePublicOnly, "/user/actions/variables", [403]],
    ];
    for (const [token, path, statuses] of cases) {
      const list = await t.call("GET", path, { token });
      expect(statuses, `${path}`).toContain(list.status);
      expect(list.text).not.toContain(VALUE);
      const put = await t.call("PUT", `${path}/HIJACK`, { token, body: { data: "x", value: "x" } });
      expect(put.status, `PUT ${path}`).toBeGreaterThanOrEqual(403);
      expect(put.status).toBeLessThan(500);
    }
    expect((await t.call("GET", `/repos/${pub}/actions/secrets`)).status).toBe(401);
    // A site admin may, as Forgejo's reqOwner / reqOrgOwnership allow.
    expect((await t.call("GET", `/orgs/${org}/actions/secrets`, { token: admin.token })).status).toBe(200);
    const names = (await t.call("GET", `/repos/${pub}/actions/secrets`, { token: alice.token })).json;
    expect(names).toEqual([expect.objectContaining({ name: "PUB_SECRET" })]);
  });

  it("keeps scopes apart: a user's secrets are not an organization's", async () => {
    await t.call("PUT", "/user/actions/secrets/MINE", { token: outsider.token, body: { data: "x" } });
    const orgList = await t.call("GET", `/orgs/${org}/actions/secrets`, { token: alice.token });
    expect(orgList.json.map((s: { name: string }) => s.name)).not.toContain("MINE");
    expect((await t.call("DELETE", "/user/actions/secrets/MINE", { token: alice.token })).status).toBe(404);
    expect((await t.call("DELETE", "/user/actions/secrets/MINE", { token: outsider.token })).status).toBe(
      204,
    );
  });
});
