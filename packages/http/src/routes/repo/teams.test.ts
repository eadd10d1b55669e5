import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createRepo } from "../../../test/repos.js";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

describe.each(DIALECTS)("a repository's teams on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let member: TestUser;
  let outsider: TestUser;
  const path = "/repos/team-org/app";

  beforeAll(async () => {
    t = await openTestApp(dialect);
    owner = await t.user();
    member = await t.user();
    outsider = await t.user();
    expect(
      (await t.call("POST", "/orgs", { token: owner.token, body: { username: "team-org" } })).status,
    ).toBe(201);
    expect(
      (
        await t.call("POST", "/orgs/team-org/repos", {
          token: owner.token,
          body: { name: "app", private: true },
        })
      ).status,
    ).toBe(201);
    const devs = await t.call("POST", "/orgs/team-org/teams", {
      token: owner.token,
      body: { name: "devs", permission: "read", units: ["repo.code"] },
    });
    expect(devs.status).toBe(201);
    await t.call("PUT", `/teams/${devs.json.id}/members/${member.name}`, { token: owner.token });
  });
  afterAll(() => t?.close());

  const names = (list: { name: string }[]) => list.map((team) => team.name);

  it("adds a team to the repository, lists and checks it, and removes it again", async () => {
    expect(names((await t.call("GET", `${path}/teams`, { token: owner.token })).json)).toEqual(["Owners"]);
    expect((await t.call("GET", `${path}/teams/devs`, { token: owner.token })).status).toBe(404);
    expect((await t.call("GET", `${path}`, { token: member.token })).status).toBe(404);

    expect((await t.call("PUT", `${path}/teams/devs`, { token: owner.token })).status).toBe(204);
    const again = await t.call("PUT", `${path}/teams/DEVS`, { token: owner.token });
    expect(again.status).toBe(422);
    expect(again.json.message).toBe("team already have repository");
    expect(names((await t.call("GET", `${path}/teams`, { token: member.token })).json)).toEqual([
      "Owners",
      "devs",
    ]);
    const checked = await t.call("GET", `${path}/teams/devs`, { token: member.token });
    expect(checked.status).toBe(200);
    expect(checked.json).toMatchObject({ name: "devs", organization: { username: "team-org" } });
    expect((await t.call("GET", path, { token: member.token })).status).toBe(200);

    expect((await t.call("DELETE", `${path}/teams/devs`, { token: owner.token })).status).toBe(204);
    const gone = await t.call("DELETE", `${path}/teams/devs`, { token: owner.token });
    expect(gone.status).toBe(422);
    expect(gone.json.message).toBe("team do not have repository");
    expect((await t.call("GET", path, { token: member.token })).status).toBe(404);
  });

  it("answers 404 for an unknown team, 403 for non-admins and hides the private repository", async () => {
    expect((await t.call("PUT", `${path}/teams/nobody`, { token: owner.token })).status).toBe(404);
    await t.call("PUT", `${path}/teams/devs`, { token: owner.token });
    expect((await t.call("DELETE", `${path}/teams/devs`, { token: member.token })).status).toBe(403);
    expect((await t.call("GET", `${path}/teams`, { token: outsider.token })).status).toBe(404);
    expect((await t.call("GET", `${path}/teams`)).status).toBe(401);
  });

  it("answers 405 for a repository a user owns", async () => {
    const own = await createRepo(t, owner, "personal");
    const res = await t.call("GET", `${own.path}/teams`, { token: owner.token });
    expect(res.status).toBe(405);
    expect(res.json.message).toBe("repo is not owned by an organization");
  });
});
