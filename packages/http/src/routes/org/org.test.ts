import { repositories } from "@kiln/storage";
import { DIALECTS } from "@kiln/storage/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openTestApp, type TestApp, type TestUser } from "../../../test/support.js";

type Viewer = "admin" | "owner" | "reader" | "writer" | "outsider" | "anonymous";
const VIEWERS: Viewer[] = ["admin", "owner", "reader", "writer", "outsider", "anonymous"];
const VISIBILITIES = ["public", "limited", "private"] as const;

describe.each(DIALECTS)("organizations and teams over a real HTTP socket on %s", (dialect) => {
  let t: TestApp;
  const who = {} as Record<Exclude<Viewer, "anonymous">, TestUser>;
  const org = {} as Record<(typeof VISIBILITIES)[number], string>;
  const teamIds = {} as Record<string, { readers: number; writers: number; owners: number }>;

  const as = (viewer: Viewer, method: string, path: string, body?: unknown) =>
    t.call(method, path, {
      ...(viewer === "anonymous" ? {} : { token: who[viewer].token }),
      ...(body !== undefined ? { body } : {}),
    });

  beforeAll(async () => {
    t = await openTestApp(dialect, {}, { listen: true });
    who.admin = await t.user({ admin: true, name: "site-admin" });
    for (const n of ["owner", "reader", "writer", "outsider"] as const)
      who[n] = await t.user({ name: `the-${n}` });
    for (const visibility of VISIBILITIES) {
      const name = `org-${visibility}`;
      org[visibility] = name;
      const created = await as("owner", "POST", "/orgs", {
        username: name,
        full_name: `Org ${visibility}`,
        visibility,
      });
      expect(created.status).toBe(201);
      const readers = await as("owner", "POST", `/orgs/${name}/teams`, {
        name: "readers",
        permission: "read",
        units: ["repo.code", "repo.issues"],
      });
      expect(readers.status).toBe(201);
      const writers = await as("owner", "POST", `/orgs/${name}/teams`, {
        name: "writers",
        units_map: { "repo.code": "write", "repo.pulls": "write", "repo.issues": "read" },
        includes_all_repositories: true,
      });
      expect(writers.status).toBe(201);
      const teams = await as("owner", "GET", `/orgs/${name}/teams`);
      teamIds[name] = {
        readers: readers.json.id,
        writers: writers.json.id,
        owners: teams.json.find((x: { name: string }) => x.name === "Owners").id,
      };
      expect((await as("owner", "PUT", `/teams/${readers.json.id}/members/${who.reader.name}`)).status).toBe(
        204,
      );
      expect((await as("owner", "PUT", `/teams/${writers.json.id}/members/${who.writer.name}`)).status).toBe(
        204,
      );
      expect((await as("reader", "PUT", `/orgs/${name}/public_members/${who.reader.name}`)).status).toBe(204);
      // Repositories come from the repository API (issue 5); here they are stored directly.
      const owner = await t.services.users.getByName(name);
      const repo = (n: string, isPrivate: boolean) =>
        repositories.insertRepository(t.services.ctx.db, {
          ownerId: owner.id,
          ownerName: name,
          name: n,
          lowerName: n,
          isPrivate,
        });
      await repo("public-repo", false);
      await repo("private-repo", true);
      await repo("team-repo", true);
      expect((await as("owner", "PUT", `/teams/${readers.json.id}/repos/${name}/team-repo`)).status).toBe(
        204,
      );
    }
  });
  afterAll(() => t?.close());

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

  it("shows the member list to members and admins, public members to others, nothing to anonymous callers", async () => {
    const members = async (viewer: Viewer, visibility: (typeof VISIBILITIES)[number]) => {
      const res = await as(viewer, "GET", `/orgs/${org[visibility]}/members`);
      return res.status === 200 ? (res.json as { login: string }[]).map((u) => u.login).sort() : res.status;
    };
    const all = [who.owner.name, who.reader.name, who.writer.name].sort();
    for (const visibility of VISIBILITIES) {
      for (const viewer of ["admin", "owner", "reader", "writer"] as const)
        expect(await members(viewer, visibility)).toEqual(all);
      expect(await members("anonymous", visibility)).toBe(401);
    }
    expect(await members("outsider", "public")).toEqual([who.reader.name]);
    expect(await members("outsider", "limited")).toEqual([who.reader.name]);
    expect(await members("outsider", "private")).toBe(404);
    const pub = await as("anonymous", "GET", `/orgs/${org.public}/public_members`);
    expect(pub.json.map((u: { login: string }) => u.login)).toEqual([who.reader.name]);
  });

  it("answers membership checks as Forgejo: 204/404 to members and admins, a redirect to the public check for others", async () => {
    const check = (viewer: Viewer, target: string, visibility: (typeof VISIBILITIES)[number] = "public") =>
      as(viewer, "GET", `/orgs/${org[visibility]}/members/${target}`);
    for (const viewer of ["admin", "owner", "reader", "writer"] as const) {
      expect((await check(viewer, who.writer.name)).status).toBe(204);
      expect((await check(viewer, who.outsider.name)).status).toBe(404);
    }
    const redirected = await check("outsider", who.writer.name);
    expect(redirected.status).toBe(303);
    expect(redirected.headers.get("Location")).toBe(
      `/api/v1/orgs/${org.public}/public_members/${who.writer.name}`,
    );
    expect((await check("outsider", who.outsider.name)).status).toBe(404);
    expect((await check("anonymous", who.writer.name)).status).toBe(401);
    expect((await check("admin", who.writer.name, "private")).status).toBe(204);
    expect((await check("outsider", who.writer.name, "private")).status).toBe(404);
    expect(
      (await as("anonymous", "GET", `/orgs/${org.public}/public_members/${who.reader.name}`)).status,
    ).toBe(204);
    expect(
      (await as("anonymous", "GET", `/orgs/${org.public}/public_members/${who.writer.name}`)).status,
    ).toBe(404);
    expect((await as("reader", "PUT", `/orgs/${org.public}/public_members/${who.writer.name}`)).status).toBe(
      403,
    );
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

  it("removes members, who then lose what membership gave them", async () => {
    expect((await as("owner", "DELETE", `/orgs/${org.private}/members/${who.writer.name}`)).status).toBe(204);
    expect((await as("owner", "GET", `/orgs/${org.private}/members/${who.writer.name}`)).status).toBe(404);
    expect((await as("writer", "GET", `/orgs/${org.private}`)).status).toBe(404);
    expect((await as("owner", "GET", `/teams/${teamIds[org.private]!.writers}/members`)).json).toEqual([]);
    expect(
      (await as("owner", "DELETE", `/teams/${teamIds[org.private]!.readers}/members/${who.reader.name}`))
        .status,
    ).toBe(204);
    expect((await as("reader", "GET", `/orgs/${org.private}`)).status).toBe(404);
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
});
