import { DIALECTS } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { orgWorld } from "../../../test/org-world.js";

describe.each(DIALECTS)("teams over a real HTTP socket on %s", (dialect) => {
  const { who, org, teamIds, as } = orgWorld(dialect);

  it("shows a team to its members, owners and admins; 403 to other members, 404 to outsiders", async () => {
    const ids = teamIds[org.public]!;
    expect((await as("reader", "GET", `/teams/${ids.readers}`)).status).toBe(200);
    const other = await as("reader", "GET", `/teams/${ids.writers}`);
    expect(other.status).toBe(403);
    expect(other.json.message).toBe("Must be a team member");
    expect((await as("owner", "GET", `/teams/${ids.writers}`)).status).toBe(200);
    expect((await as("admin", "GET", `/teams/${ids.writers}`)).status).toBe(200);
    expect((await as("outsider", "GET", `/teams/${ids.readers}`)).status).toBe(404);
    expect((await as("reader", "GET", `/teams/${ids.readers}/members/${who.reader.name}`)).json.login).toBe(
      who.reader.name,
    );
    expect((await as("reader", "GET", `/teams/${ids.readers}/members/${who.writer.name}`)).status).toBe(404);
    const repos = await as("reader", "GET", `/teams/${ids.readers}/repos`);
    expect(repos.json.map((r: { name: string }) => r.name)).toEqual(["team-repo"]);
    expect(repos.json[0].permissions).toEqual({ admin: false, push: false, pull: true });
    const writerRepos = await as("writer", "GET", `/teams/${ids.writers}/repos`);
    expect(writerRepos.json.map((r: { name: string }) => r.name)).toEqual([
      "public-repo",
      "private-repo",
      "team-repo",
    ]);
    expect(writerRepos.json[1].permissions).toEqual({ admin: false, push: true, pull: true });
    expect((await as("reader", "GET", `/teams/${ids.readers}/repos/${org.public}/team-repo`)).status).toBe(
      200,
    );
    expect((await as("reader", "GET", `/teams/${ids.readers}/repos/${org.public}/public-repo`)).status).toBe(
      404,
    );
    expect((await as("reader", "PUT", `/teams/${ids.readers}/repos/${org.public}/public-repo`)).status).toBe(
      403,
    );
    const searched = await as("reader", "GET", `/orgs/${org.public}/teams/search?q=WRIT`);
    expect(searched.json.data.map((x: { name: string }) => x.name)).toEqual(["writers"]);
    const mine = await as("writer", "GET", "/user/teams");
    expect(mine.json.map((x: { name: string }) => x.name)).toEqual(["writers", "writers", "writers"]);
  });

  it("edits teams, keeping the Owners team and its last owner", async () => {
    const ids = teamIds[org.limited]!;
    const edited = await as("owner", "PATCH", `/teams/${ids.readers}`, {
      name: "readers",
      permission: "write",
      units: ["repo.code"],
    });
    expect(edited.json).toMatchObject({ permission: "write", units_map: { "repo.code": "write" } });
    expect(
      (await as("owner", "PATCH", `/teams/${ids.owners}`, { name: "renamed", permission: "read" })).json,
    ).toMatchObject({ name: "Owners", permission: "owner" });
    expect((await as("owner", "DELETE", `/teams/${ids.owners}`)).status).toBe(422);
    expect((await as("owner", "DELETE", `/teams/${ids.owners}/members/${who.owner.name}`)).status).toBe(422);
    expect((await as("owner", "DELETE", `/orgs/${org.limited}/members/${who.owner.name}`)).status).toBe(422);
    expect((await as("reader", "DELETE", `/teams/${ids.readers}`)).status).toBe(403);
  });
});
