import { DIALECTS } from "@kiln/storage/testing";
import { describe, expect, it } from "vitest";
import { orgWorld, VIEWERS, VISIBILITIES, type Viewer } from "../../../test/org-world.js";

describe.each(DIALECTS)("organizations over a real HTTP socket on %s", (dialect) => {
  const { who, org, teamIds, as } = orgWorld(dialect);

  it("creates organizations in Forgejo's shape, with the creator in the Owners team", async () => {
    const res = await as("owner", "GET", `/orgs/${org.public}`);
    expect(res.json).toMatchObject({
      name: org.public,
      username: org.public,
      full_name: "Org public",
      visibility: "public",
      repo_admin_change_team_access: false,
    });
    const owners = await as("owner", "GET", `/teams/${teamIds[org.public]!.owners}`);
    expect(owners.json).toMatchObject({
      name: "Owners",
      permission: "owner",
      includes_all_repositories: true,
      can_create_org_repo: true,
    });
    expect(owners.json.organization.name).toBe(org.public);
    const readers = await as("owner", "GET", `/teams/${teamIds[org.public]!.readers}`);
    expect(readers.json).toMatchObject({
      permission: "read",
      units: ["repo.code", "repo.issues"],
      units_map: { "repo.code": "read", "repo.issues": "read" },
    });
    const writers = await as("owner", "GET", `/teams/${teamIds[org.public]!.writers}`);
    expect(writers.json).toMatchObject({
      permission: "none",
      units_map: { "repo.code": "write", "repo.pulls": "write", "repo.issues": "read" },
    });
    expect((await as("owner", "POST", "/orgs", { username: org.public })).status).toBe(422);
    expect((await as("owner", "POST", "/orgs", {})).json.message).toBe("[Username]: Required");
  });

  // What each viewer sees of an organization of each visibility: the organization (200/404) and repos_count.
  const expectedOrg: Record<(typeof VISIBILITIES)[number], Record<Viewer, number | null>> = {
    public: { admin: 3, owner: 3, reader: 2, writer: 3, outsider: 1, anonymous: 1 },
    limited: { admin: 3, owner: 3, reader: 2, writer: 3, outsider: 1, anonymous: null },
    private: { admin: 3, owner: 3, reader: 2, writer: 3, outsider: null, anonymous: null },
  };

  it.each(VISIBILITIES)(
    "shows a %s organization and its repos_count according to who asks",
    async (visibility) => {
      for (const viewer of VIEWERS) {
        const res = await as(viewer, "GET", `/orgs/${org[visibility]}`);
        const expected = expectedOrg[visibility][viewer];
        if (expected === null) {
          expect(res.status, `${viewer} on ${visibility}`).toBe(404);
        } else {
          expect(res.status, `${viewer} on ${visibility}`).toBe(200);
          expect(res.json.repos_count, `${viewer} repos_count on ${visibility}`).toBe(expected);
        }
      }
    },
  );

  it("lists the organizations each viewer may see", async () => {
    const names = async (viewer: Viewer) =>
      ((await as(viewer, "GET", "/orgs?limit=50")).json as { name: string }[])
        .map((o) => o.name)
        .filter((n) => n.startsWith("org-"));
    expect(await names("anonymous")).toEqual([org.public]);
    expect(await names("outsider")).toEqual([org.public, org.limited]);
    expect(await names("reader")).toEqual([org.public, org.limited, org.private]);
    expect(await names("admin")).toEqual([org.public, org.limited, org.private]);
    const mine = await as("reader", "GET", "/user/orgs");
    expect(mine.json.map((o: { name: string }) => o.name)).toEqual([org.public, org.limited, org.private]);
    expect(mine.headers.get("X-Total-Count")).toBe("3");
    // Others see only public memberships of organizations visible to them.
    const ofReader = await as("outsider", "GET", `/users/${who.reader.name}/orgs`);
    expect(ofReader.json.map((o: { name: string }) => o.name)).toEqual([org.public, org.limited]);
    const ofWriter = await as("outsider", "GET", `/users/${who.writer.name}/orgs`);
    expect(ofWriter.json).toEqual([]);
    const ofWriterByAdmin = await as("admin", "GET", `/users/${who.writer.name}/orgs`);
    expect(ofWriterByAdmin.json).toHaveLength(3);
  });

  it("lets only owners and site admins change the organization and its teams", async () => {
    const edit = (viewer: Viewer, visibility: (typeof VISIBILITIES)[number]) =>
      as(viewer, "PATCH", `/orgs/${org[visibility]}`, { description: `edited by ${viewer}` });
    expect((await edit("owner", "public")).status).toBe(200);
    expect((await edit("admin", "private")).status).toBe(200);
    for (const viewer of ["reader", "writer", "outsider"] as const) {
      const res = await edit(viewer, "public");
      expect(res.status, viewer).toBe(403);
      expect(res.json.message).toBe("Must be an organization owner");
    }
    expect((await edit("outsider", "private")).status).toBe(404);
    expect((await edit("anonymous", "public")).status).toBe(401);
    expect(
      (
        await as("reader", "POST", `/orgs/${org.public}/teams`, {
          name: "x",
          permission: "read",
          units: ["repo.code"],
        })
      ).status,
    ).toBe(403);
    expect((await as("outsider", "GET", `/orgs/${org.public}/teams`)).json.message).toBe(
      "Must be an organization member",
    );
  });

  it("reports each member's permissions in the organization", async () => {
    const perms = async (name: string) =>
      (await as("owner", "GET", `/users/${name}/orgs/${org.limited}/permissions`)).json;
    expect(await perms(who.owner.name)).toEqual({
      is_owner: true,
      is_admin: true,
      can_write: true,
      can_read: true,
      can_create_repository: true,
    });
    expect(await perms(who.writer.name)).toEqual({
      is_owner: false,
      is_admin: false,
      can_write: true,
      can_read: true,
      can_create_repository: false,
    });
    expect(await perms(who.reader.name)).toEqual({
      is_owner: false,
      is_admin: false,
      can_write: false,
      can_read: true,
      can_create_repository: false,
    });
    expect(await perms(who.outsider.name)).toEqual({
      is_owner: false,
      is_admin: false,
      can_write: false,
      can_read: false,
      can_create_repository: false,
    });
    expect(
      (await as("outsider", "GET", `/users/${who.reader.name}/orgs/${org.private}/permissions`)).status,
    ).toBe(404);
  });

  it("refuses to delete an organization that owns repositories; deletes an empty one", async () => {
    const refused = await as("owner", "DELETE", `/orgs/${org.public}`);
    expect(refused.status).toBe(422);
    expect(refused.json.message).toContain("still has ownership of repositories");
    expect((await as("owner", "POST", "/orgs", { username: "short-lived" })).status).toBe(201);
    expect((await as("reader", "DELETE", "/orgs/short-lived")).status).toBe(403);
    expect((await as("owner", "DELETE", "/orgs/short-lived")).status).toBe(204);
    expect((await as("owner", "GET", "/orgs/short-lived")).status).toBe(404);
  });

  it("refuses an organization name taken by a user or an organization with Forgejo's 422 message", async () => {
    for (const taken of [who.reader.name, who.reader.name.toUpperCase(), org.private]) {
      const res = await as("owner", "POST", "/orgs", { username: taken });
      expect(res.status).toBe(422);
      // Forgejo's CreateOrganization answers ErrUserAlreadyExist: accounts share one namespace.
      expect(res.json.message).toBe(`user already exists [name: ${taken}]`);
    }
  });
});
