import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { addRepository } from "../../../test/quota-support.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

const ROUTES = ["", "/check?subject=size:all", "/attachments", "/packages", "/artifacts"];

describe.each(DIALECTS)("an organization's quota over HTTP on %s", (dialect) => {
  let t: TestApp;
  let admin: TestUser;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  const org = "quota-org";
  const hidden = "quota-private-org";

  beforeAll(async () => {
    t = await openTestApp(dialect);
    admin = await t.user({ admin: true });
    owner = await t.user();
    member = await t.user();
    outsider = await t.user();
    for (const [name, visibility] of [
      [org, "public"],
      [hidden, "private"],
    ]) {
      const res = await t.call("POST", "/orgs", { token: owner.token, body: { username: name, visibility } });
      expect(res.status).toBe(201);
    }
    const team = await t.call("POST", `/orgs/${org}/teams`, {
      token: owner.token,
      body: { name: "writers", permission: "write", units: ["repo.code"] },
    });
    expect(
      (await t.call("PUT", `/teams/${team.json.id}/members/${member.name}`, { token: owner.token })).status,
    ).toBe(204);
  });
  afterAll(() => t?.close());

  it("answers the organization's owners and site admins on every route", async () => {
    for (const who of [owner, admin]) {
      for (const path of ROUTES) {
        const res = await t.call("GET", `/orgs/${org}/quota${path}`, { token: who.token });
        expect(res.status, path).toBe(200);
      }
    }
  });

  it("refuses members who are not owners (403) and hides a private organization from outsiders (404)", async () => {
    for (const path of ROUTES) {
      const denied = await t.call("GET", `/orgs/${org}/quota${path}`, { token: member.token });
      expect(denied.status, path).toBe(403);
      expect(denied.json.message).toBe("Must be an organization owner");
      expect((await t.call("GET", `/orgs/${org}/quota${path}`, { token: outsider.token })).status).toBe(403);
      expect((await t.call("GET", `/orgs/${hidden}/quota${path}`, { token: outsider.token })).status).toBe(
        404,
      );
      expect((await t.call("GET", `/orgs/no-such-org/quota${path}`, { token: owner.token })).status).toBe(
        404,
      );
      expect((await t.call("GET", `/orgs/${org}/quota${path}`)).status).toBe(401);
    }
  });

  it("needs the organization scope on the token", async () => {
    const account = await t.services.users.getByName(owner.name);
    const userOnly = (await t.services.tokens.create(account, "user-only", ["read:user"])).secret;
    const orgRead = (await t.services.tokens.create(account, "org-read", ["read:organization"])).secret;
    const denied = await t.call("GET", `/orgs/${org}/quota`, { token: userOnly });
    expect(denied.status).toBe(403);
    expect(denied.json.message).toBe(
      "token does not have at least one of required scope(s): [read:organization]",
    );
    expect((await t.call("GET", `/orgs/${org}/quota`, { token: orgRead })).status).toBe(200);
  });

  it("counts the organization's repositories against the organization, and checks its own groups (AddLimitedOrg)", async () => {
    const orgUser = await t.services.users.getByName(org);
    await addRepository(t, orgUser, { gitSize: 5000, isPrivate: true });
    const info = await t.call("GET", `/orgs/${org}/quota`, { token: owner.token });
    expect(info.json.used.size.repos).toEqual({ public: 0, private: 5000 });
    expect((await t.call("GET", "/user/quota", { token: owner.token })).json.used.size.repos.private).toBe(0);

    const adminCall = (method: string, path: string, body?: unknown) =>
      t.call(method, path, { token: admin.token, ...(body !== undefined ? { body } : {}) });
    expect((await adminCall("POST", "/admin/quota/groups", { name: "limited" })).status).toBe(201);
    expect(
      (await adminCall("POST", "/admin/quota/rules", { name: "deny-all", limit: 0, subjects: ["size:all"] }))
        .status,
    ).toBe(201);
    expect((await adminCall("PUT", "/admin/quota/groups/limited/rules/deny-all")).status).toBe(204);
    // Organizations are put in groups through the same /users/{username} path.
    expect((await adminCall("PUT", `/admin/quota/groups/limited/users/${org}`)).status).toBe(204);
    const check = await t.call("GET", `/orgs/${org}/quota/check?subject=size:repos:all`, {
      token: owner.token,
    });
    expect(check.json).toBe(false);
    expect(
      (await t.call("GET", "/user/quota/check?subject=size:repos:all", { token: owner.token })).json,
    ).toBe(true);
    expect((await t.call("GET", `/orgs/${org}/quota`, { token: owner.token })).json.groups).toEqual([
      { rules: [{ limit: 0, subjects: ["size:all"] }] },
    ]);
    const bad = await t.call("GET", `/orgs/${org}/quota/check?subject=bogus`, { token: owner.token });
    expect(bad.status).toBe(422);
    expect(bad.json.message).toBe("unrecognized quota limit subject: [subject: bogus]");
    const users = await adminCall("GET", "/admin/quota/groups/limited/users");
    expect(users.json.map((u: { login: string }) => u.login)).toEqual([org]);
  });
});
