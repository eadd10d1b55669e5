import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("POST /org/{org}/repos (the deprecated path) on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let outsider: TestUser;

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    outsider = await t.user();
    expect(
      (await t.call("POST", "/orgs", { token: owner.token, body: { username: "legacy-org" } })).status,
    ).toBe(201);
    expect(
      (
        await t.call("POST", "/orgs", {
          token: owner.token,
          body: { username: "legacy-hidden", visibility: "private" },
        })
      ).status,
    ).toBe(201);
  });
  afterAll(() => t?.close());

  it("creates a repository in the organization as POST /orgs/{org}/repos does", async () => {
    const res = await t.call("POST", "/org/legacy-org/repos", {
      token: owner.token,
      body: { name: "old-way" },
    });
    expect(res.status).toBe(201);
    expect(res.json).toMatchObject({ full_name: "legacy-org/old-way", owner: { login: "legacy-org" } });
    expect((await t.call("GET", "/repos/legacy-org/old-way")).status).toBe(200);
    const taken = await t.call("POST", "/org/legacy-org/repos", {
      token: owner.token,
      body: { name: "old-way" },
    });
    expect(taken.status).toBe(409);
  });

  it("refuses outsiders and hides a private organization", async () => {
    expect(
      (await t.call("POST", "/org/legacy-org/repos", { token: outsider.token, body: { name: "intruder" } }))
        .status,
    ).toBe(403);
    expect(
      (
        await t.call("POST", "/org/legacy-hidden/repos", {
          token: outsider.token,
          body: { name: "intruder" },
        })
      ).status,
    ).toBe(404);
    expect((await t.call("POST", "/org/legacy-org/repos", { body: { name: "anonymous" } })).status).toBe(401);
  });
});
