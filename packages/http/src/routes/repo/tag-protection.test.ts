import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestApp, TestUser } from "../../../test/support.js";
import { type AsCaller, openWorld } from "../../../test/world.js";

describe.each(DIALECTS)("tag protections over HTTP on %s", (dialect) => {
  let t: TestApp;
  let owner: TestUser;
  let writer: TestUser;
  let releaser: TestUser;
  let teamMember: TestUser;

  let as: AsCaller;

  beforeAll(async () => {
    ({
      t,
      as,
      users: [owner, writer, releaser, teamMember],
    } = await openWorld(dialect, {
      users: ["owner", "writer", "releaser", "teamer"],
      org: "acme",
      repo: { name: "tagged" },
      collaborators: { writer: "write", releaser: "write" },
    }));
    const call = (method: string, p: string, body?: unknown) =>
      t.call(method, p, { token: owner.token, ...(body !== undefined ? { body } : {}) });
    const team = await call("POST", "/orgs/acme/teams", {
      name: "release-team",
      units_map: { "repo.code": "write" },
      includes_all_repositories: true,
    });
    expect((await call("PUT", `/teams/${team.json.id}/members/teamer`)).status).toBe(204);
  });
  afterAll(() => t?.close());

  it("is for repository admins only (403 for a writer, 404 for an outsider of a private repo's owner)", async () => {
    expect((await as(writer, "GET", "/tag_protections")).status).toBe(403);
    expect((await as(null, "GET", "/tag_protections")).status).toBe(401);
    expect((await as(owner, "GET", "/tag_protections")).json).toEqual([]);
  });

  it("answers Forgejo's 400s, 403 and 422s on create", async () => {
    const empty = await as(owner, "POST", "/tag_protections", { whitelist_usernames: ["releaser"] });
    expect(empty.status).toBe(400);
    expect(empty.json.message).toBe("name_pattern are empty");
    const noLists = await as(owner, "POST", "/tag_protections", { name_pattern: "v*" });
    expect(noLists.status).toBe(400);
    expect(noLists.json.message).toBe("both whitelist_usernames and whitelist_teams are empty");
    const ghost = await as(owner, "POST", "/tag_protections", {
      name_pattern: "v*",
      whitelist_usernames: ["ghost"],
    });
    expect(ghost.status).toBe(422);
    const team = await as(owner, "POST", "/tag_protections", {
      name_pattern: "v*",
      whitelist_teams: ["nobody"],
    });
    expect(team.status).toBe(422);
    const regex = await as(owner, "POST", "/tag_protections", {
      name_pattern: "/v.*/",
      whitelist_usernames: ["owner"],
    });
    expect(regex.status).toBe(422);
  });

  let id: number;
  it("creates (201), lists, gets, edits and deletes a rule", async () => {
    const created = await as(owner, "POST", "/tag_protections", {
      name_pattern: " v* ",
      whitelist_usernames: ["releaser", "releaser"],
      whitelist_teams: ["release-team"],
    });
    expect(created.status).toBe(201);
    expect(created.json).toMatchObject({
      name_pattern: "v*",
      whitelist_usernames: ["releaser"],
      whitelist_teams: ["release-team"],
    });
    id = created.json.id;
    const again = await as(owner, "POST", "/tag_protections", {
      name_pattern: "v*",
      whitelist_usernames: ["owner"],
    });
    expect(again.status).toBe(403);
    expect(again.json.message).toBe("Tag protection already exist");
    expect((await as(owner, "GET", "/tag_protections")).json).toHaveLength(1);
    expect((await as(owner, "GET", `/tag_protections/${id}`)).json.name_pattern).toBe("v*");
    expect((await as(owner, "GET", "/tag_protections/999999")).status).toBe(404);
    const edited = await as(owner, "PATCH", `/tag_protections/${id}`, { name_pattern: "v*.*" });
    expect(edited.status).toBe(200);
    expect(edited.json).toMatchObject({ name_pattern: "v*.*", whitelist_usernames: ["releaser"] });
    const other = await as(owner, "POST", "/tag_protections", {
      name_pattern: "tmp-*",
      whitelist_usernames: ["owner"],
    });
    expect((await as(owner, "DELETE", `/tag_protections/${other.json.id}`)).status).toBe(204);
    expect((await as(owner, "DELETE", `/tag_protections/${other.json.id}`)).status).toBe(404);
  });

  it("refuses creating and deleting a protected tag through the API to a writer not allowed (422)", async () => {
    const refused = await as(writer, "POST", "/tags", { tag_name: "v1.0" });
    expect(refused.status).toBe(422);
    expect(refused.json.message).toBe("user not allowed to create protected tag");
    expect((await as(writer, "POST", "/tags", { tag_name: "nightly" })).status).toBe(201);
    expect((await as(releaser, "POST", "/tags", { tag_name: "v1.0" })).status).toBe(201);
    expect((await as(teamMember, "POST", "/tags", { tag_name: "v1.1" })).status).toBe(201);
    const del = await as(writer, "DELETE", "/tags/v1.0");
    expect(del.status).toBe(422);
    expect(del.json.message).toBe("user not allowed to delete protected tag");
    expect((await as(releaser, "DELETE", "/tags/v1.0")).status).toBe(204);
  });

  it("refuses a release that would create a protected tag for a writer not allowed", async () => {
    const res = await as(writer, "POST", "/releases", { tag_name: "v2.0", name: "two" });
    expect(res.status).toBe(422);
    expect((await as(writer, "GET", "/tags/v2.0")).status).toBe(404);
  });
});
